import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { isNodeFailure, isUnavailable, PRICE_UNAVAILABLE, PriceUnavailableError, UserError } from '@shop/core';

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ message: `Not found: ${req.method} ${req.originalUrl.split('?')[0]}` });
};

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof UserError) {
    res.status(err.status).json({ ...err.detail, message: err.message, ...(err.errors ? { errors: err.errors } : {}) });
    return;
  }
  if (err instanceof PriceUnavailableError) {
    res.status(503).json({ message: PRICE_UNAVAILABLE });
    return;
  }
  if (err instanceof ZodError) {
    const errors = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    const first = errors[0];
    res.status(400).json({ message: first ? `Invalid ${first.path || 'input'}: ${first.message}` : 'Invalid input', errors });
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
    res.status(status).json({ message });
    return;
  }
  if (isNodeFailure(err)) {
    req.log?.warn({ err }, 'ethereum node failed');
    res.status(503).json({ message: 'The Ethereum node did not answer as expected; please try again in a moment' });
    return;
  }
  if (isUnavailable(err)) {
    req.log?.warn({ err }, 'dependency unavailable');
    res.status(503).json({ message: 'Service temporarily unavailable, please try again' });
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json({ message: 'Internal server error' });
};
