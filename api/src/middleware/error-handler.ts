import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { isNodeFailure, PRICE_UNAVAILABLE, PriceUnavailableError, UserError } from '@shop/core';

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ message: `Not found: ${req.method} ${req.originalUrl.split('?')[0]}` });
};

/**
 * True for errors that mean "a dependency is unreachable right now" (answered with 503),
 * not "this request is wrong": Prisma's connection and pool/transaction-timeout codes, Postgres connection-class
 * SQLSTATEs (08xxx, 57P0x, 53300, and 55000 "not accepting connections") found in the
 * driver adapter's error, socket errors, and ioredis' connection errors.
 */
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', '53300', '57P01', '57P02', '57P03']);
const unavailableMessage =
  /Connection is closed|connect ECONNREFUSED|Connection terminated|terminating connection|not currently accepting connections|timeout exceeded when trying to connect|Can't reach database|Stream isn't writeable|max retries per request|Client has encountered a connection error|Server has closed the connection/i;

export function isUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0 && seen.size < 20) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const o = e as { code?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    for (const code of [o.code, o.originalCode]) {
      if (typeof code === 'string' && (unavailableCodes.has(code) || code.startsWith('08'))) return true;
    }
    if (typeof o.message === 'string' && unavailableMessage.test(o.message)) return true;
    queue.push(o.cause, o.meta?.driverAdapterError);
  }
  return false;
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof UserError) {
    res.status(err.status).json(err.errors ? { message: err.message, errors: err.errors } : { message: err.message });
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
