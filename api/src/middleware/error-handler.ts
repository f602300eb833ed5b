import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { HttpError } from '../errors.ts';

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ message: `Not found: ${req.method} ${req.originalUrl.split('?')[0]}` });
};

/** Codes of pg / Prisma errors that mean "the database is unreachable", not "bad request". */
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'P1001', 'P1002', 'P1017', '57P01', '57P03']);

function isUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const o = e as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown };
    if (typeof o.code === 'string' && unavailableCodes.has(o.code)) return true;
    if (typeof o.message === 'string' && /Connection is closed|connect ECONNREFUSED|Connection terminated|timeout exceeded when trying to connect|Stream isn't writeable|max retries per request/i.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof HttpError) {
    res.status(err.status).json(err.errors ? { message: err.message, errors: err.errors } : { message: err.message });
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
  if (isUnavailable(err)) {
    req.log?.warn({ err }, 'dependency unavailable');
    res.status(503).json({ message: 'Service temporarily unavailable, please try again' });
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  res.status(500).json({ message: 'Internal server error' });
};
