import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '@shop/core';

declare module 'express-serve-static-core' {
  interface Request {
    /** This request's logger, bound to its id; built on first use. */
    readonly log: Logger;
    /** `x-request-id` (cut to 100 characters) or a generated id; made on first use. */
    readonly id: string;
  }
}

/** Successful reads of these paths are logged at debug: most of the traffic, and counted by the metrics. */
const QUIET_PREFIXES = ['/api/products', '/uploads/', '/assets/', '/images/'];

function isQuiet(url: string): boolean {
  const path = url.split('?', 1)[0] ?? url;
  return path === '/api/health' || QUIET_PREFIXES.some((p) => path.startsWith(p));
}

/**
 * One log line per request when it ends: `request completed` (error for 5xx, warn for
 * 4xx, info otherwise, debug for successful catalogue, static and health reads) or
 * `request aborted` (warn) when the client left first.
 *
 * Why our own and not pino-http (docs/decisions.md): pino-http binds two child loggers
 * to every request, about 40 µs, even when nothing is logged; here `req.id` and
 * `req.log` are built only when something logs. They are properties of the request
 * object itself, defined when the request arrives, so a request answered by a mounted
 * app that swaps the request's prototype (the queue dashboard) still has them; and the
 * end-of-request listener never throws (a throw there would take the process down).
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    let id: string | undefined;
    let log: Logger | undefined;
    Object.defineProperties(req, {
      id: {
        configurable: true,
        get() {
          const header = req.headers['x-request-id'];
          return (id ??= typeof header === 'string' && header !== '' ? header.slice(0, 100) : randomUUID());
        },
      },
      log: {
        configurable: true,
        get(this: Request) {
          return (log ??= logger.child({ reqId: this.id }));
        },
      },
    });
    // 'finish' when the response was sent; 'close' without 'finish' when the client left first.
    const end = (finished: boolean) => {
      try {
        const status = res.statusCode;
        const quiet = finished && status < 400 && req.method === 'GET' && isQuiet(req.originalUrl);
        const level = !finished ? 'warn' : status >= 500 ? 'error' : status >= 400 ? 'warn' : quiet ? 'debug' : 'info';
        if (!logger.isLevelEnabled(level)) return;
        req.log[level](
          { req: { method: req.method, url: redactTokens(req.originalUrl) }, res: { statusCode: status }, responseTime: Math.round(performance.now() - started) },
          finished ? 'request completed' : 'request aborted',
        );
      } catch (err) {
        try {
          logger.error({ err }, 'could not log a request');
        } catch {
          // The log itself is broken (its stream throws): nothing left to tell, and the
          // request must not take the process down with it.
        }
      }
    };
    res.once('finish', () => end(true));
    res.once('close', () => {
      if (!res.writableFinished) end(false);
    });
    next();
  };
}

/** A URL as logged: a `token` in its query (a password-reset link opened) never reaches the log. */
export function redactTokens(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}
