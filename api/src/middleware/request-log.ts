import { randomUUID } from 'node:crypto';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { Logger } from '@shop/core';

declare module 'express-serve-static-core' {
  interface Request {
    /** This request's logger, bound to its id; built on first use. */
    readonly log: Logger;
    /** `x-request-id` (cut to 100 characters) or a generated id; made on first use. */
    readonly id: string;
  }
}

/** Called once per request when it ends, with its duration in seconds. */
export type RequestObserver = (req: Request, res: Response, seconds: number) => void;

const QUIET_PREFIXES = ['/api/products', '/uploads/', '/assets/', '/images/'];
const kLog = Symbol('log');
const kId = Symbol('id');
type Lazy = { [kLog]?: Logger; [kId]?: string };

/**
 * One log line per request, when it ends: `request completed` (error for 5xx, warn for
 * 4xx, info otherwise) or `request aborted` when the client left first. Successful
 * reads of the public catalogue, static files and the health check are logged at debug:
 * they are most of the traffic and the HTTP metrics already count them. `req.id` and
 * `req.log` live on the app's request prototype and are built only when something logs,
 * so a request nobody logs about costs no id and no serialisation. `observe` (the HTTP
 * metrics) is called from the same end-of-request listener.
 */
export function requestLog(app: Express, logger: Logger, observe?: RequestObserver): RequestHandler {
  Object.defineProperties(app.request, {
    id: {
      configurable: true,
      get(this: Request & Lazy) {
        const header = this.headers['x-request-id'];
        return (this[kId] ??= typeof header === 'string' && header !== '' ? header.slice(0, 100) : randomUUID());
      },
    },
    log: {
      configurable: true,
      get(this: Request & Lazy) {
        return (this[kLog] ??= logger.child({ reqId: this.id }));
      },
    },
  });

  return (req, res, next) => {
    const started = performance.now();
    // 'finish' while the matched route is still on req (the metrics label it by route);
    // 'close' without 'finish' when the client left first.
    const end = (finished: boolean) => {
      const seconds = (performance.now() - started) / 1000;
      observe?.(req, res, seconds);
      const status = res.statusCode;
      const quiet = finished && status < 400 && req.method === 'GET' && isQuiet(req.originalUrl);
      const level = !finished ? 'warn' : status >= 500 ? 'error' : status >= 400 ? 'warn' : quiet ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      req.log[level](
        { req: { method: req.method, url: req.originalUrl }, res: { statusCode: status }, responseTime: Math.round(seconds * 1000) },
        finished ? 'request completed' : 'request aborted',
      );
    };
    res.once('finish', () => end(true));
    res.once('close', () => {
      if (!res.writableFinished) end(false);
    });
    next();
  };
}

function isQuiet(url: string): boolean {
  const path = url.split('?', 1)[0] ?? url;
  return path === '/api/health' || QUIET_PREFIXES.some((p) => path.startsWith(p));
}
