import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '@shop/core';

declare module 'express-serve-static-core' {
  interface Request {
    /** This request's logger (bound to its id); created on first use. */
    log: Logger;
  }
}

const QUIET_PREFIXES = ['/api/products', '/uploads/', '/assets/', '/images/'];

/**
 * One log line per request, when it ends: `request completed` (error for 5xx, warn for
 * 4xx, info otherwise) or `request aborted` when the client left first. Successful
 * reads of the public catalogue, static files and the health check are logged at debug:
 * they are most of the traffic and the HTTP metrics already count them. The request id
 * comes from `x-request-id` (cut to 100 characters) or is generated; `req.log` carries it
 * and is only built when something logs, so a request nobody logs about costs no
 * serialisation.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const header = req.headers['x-request-id'];
    const id = typeof header === 'string' && header !== '' ? header.slice(0, 100) : randomUUID();
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { configurable: true, enumerable: false, get: () => (child ??= logger.child({ reqId: id })) });
    const started = performance.now();
    const quiet = req.method === 'GET' && (req.path === '/api/health' || QUIET_PREFIXES.some((p) => req.path.startsWith(p)));

    res.once('close', () => {
      const status = res.statusCode;
      const finished = res.writableFinished;
      const level =
        !finished ? 'warn'
        : status >= 500 ? 'error'
        : status >= 400 ? 'warn'
        : quiet ? 'debug'
        : 'info';
      if (!logger.isLevelEnabled(level)) return;
      req.log[level](
        { req: { method: req.method, url: req.originalUrl }, res: { statusCode: status }, responseTime: Math.round(performance.now() - started) },
        finished ? 'request completed' : 'request aborted',
      );
    });
    next();
  };
}
