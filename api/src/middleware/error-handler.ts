import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { isNodeFailure, isUnavailable, PRICE_UNAVAILABLE, PriceUnavailableError, UserError } from '@shop/core';
import { translateFieldMessage, translateFieldProblem, translateMessage } from '../messages/translate.ts';
import { requestLocale } from './locale.ts';
import { fieldLabel, fieldMessage } from './validate.ts';

type FieldError = { path: string; message: string };

/**
 * A message and its fields' problems in the request's language (requestLocale): the one
 * place the api translates what it answers people (api/src/messages). A field's message
 * ('Password must be at least 8 characters') is translated as its name and its problem;
 * anything the catalogues lack stays in English.
 */
function spoken(req: Request, message: string, errors?: FieldError[]): { message: string; errors?: FieldError[] } {
  const english = { message, ...(errors ? { errors } : {}) };
  try {
    const locale = requestLocale(req);
    if (locale === 'en') return english;
    const first = errors?.[0];
    const text =
      first?.path && message === fieldMessage(first.path, first.message)
        ? translateFieldMessage(locale, first.path, first.message, fieldLabel(first.path))
        : translateMessage(locale, message);
    return { message: text, ...(errors ? { errors: errors.map((e) => ({ path: e.path, message: translateFieldProblem(locale, e.message) })) } : {}) };
  } catch (err) {
    // A translation must never turn an answer into a fault: the English one goes out.
    req.log?.warn({ err }, 'error message not translated');
    return english;
  }
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(spoken(req, `Not found: ${req.method} ${req.originalUrl.split('?')[0]}`));
};

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof UserError) {
    res.status(err.status).json({ ...err.detail, ...spoken(req, err.message, err.errors) });
    return;
  }
  if (err instanceof PriceUnavailableError) {
    res.status(503).json(spoken(req, PRICE_UNAVAILABLE));
    return;
  }
  if (err instanceof ZodError) {
    const errors = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    const first = errors[0];
    res.status(400).json(spoken(req, first ? `Invalid ${first.path || 'input'}: ${first.message}` : 'Invalid input', errors));
    return;
  }
  // body-parser and multer errors carry a 4xx status of their own.
  const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const type = (err as { type?: string }).type;
    const message =
      type === 'entity.parse.failed' ? 'Malformed JSON body'
      : type === 'entity.too.large' ? 'Request body too large'
      : status === 413 ? 'Request body too large'
      : status === 404 ? 'Not found'
      : 'Bad request';
    res.status(status).json(spoken(req, message));
    return;
  }
  if (isNodeFailure(err)) {
    req.log?.warn({ err }, 'ethereum node failed');
    res.status(503).json(spoken(req, 'The Ethereum node did not answer as expected; please try again in a moment'));
    return;
  }
  if (isUnavailable(err)) {
    req.log?.warn({ err }, 'dependency unavailable');
    res.status(503).json(spoken(req, 'Service temporarily unavailable, please try again'));
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json(spoken(req, 'Internal server error'));
};
