import { randomUUID } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response } from 'express';
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
 * Told of every response that was sent whole, with its time in ms (the metrics' latency
 * histogram): it rides on the log's one listener, so a request pays for one. It must not
 * throw (a throw is logged and dropped).
 */
export type ResponseSent = (req: Request, res: Response, ms: number) => void;

/** What the request log keeps on a request: set when it arrives, read by the getters and the listener. */
type LogState = { logger: Logger; started: number; sent: ResponseSent | undefined; id?: string; log?: Logger };
const STATE = Symbol('request log');
type Logged = Request & { [STATE]: LogState };

/**
 * `req.id` and `req.log`, made on first use from the request's own state. Defined once,
 * on Express's base request prototype, which every Express app's requests inherit from:
 * a mounted app that swaps the request's prototype for its own (the queue dashboard)
 * keeps them. Defining them on each request instead cost more than the rest of the log
 * (the request object changed shape on every request). A request the log never saw has
 * neither (undefined, as before any log was installed).
 */
const ACCESSORS: PropertyDescriptorMap = {
  id: {
    configurable: true,
    get(this: Logged) {
      const state = this[STATE] as LogState | undefined;
      if (!state) return undefined;
      const header = this.headers['x-request-id'];
      return (state.id ??= typeof header === 'string' && header !== '' ? header.slice(0, 100) : randomUUID());
    },
  },
  log: {
    configurable: true,
    get(this: Logged) {
      const state = this[STATE] as LogState | undefined;
      if (!state) return undefined;
      return (state.log ??= state.logger.child({ reqId: this.id }));
    },
  },
};
Object.defineProperties(express.request, ACCESSORS);

/** The response's 'close' (after 'finish' when it was sent; without it when the client left first). */
function onClose(this: Response): void {
  const req = this.req as Logged;
  const state = req[STATE];
  try {
    const ms = performance.now() - state.started;
    const finished = this.writableFinished;
    if (finished && state.sent) {
      try {
        state.sent(req, this, ms);
      } catch (err) {
        try {
          state.logger.warn({ err }, 'could not record request metrics');
        } catch {
          // The log is broken too (see below): the request's line is still tried.
        }
      }
    }
    const status = this.statusCode;
    const quiet = finished && status < 400 && req.method === 'GET' && isQuiet(req.originalUrl);
    const level = !finished ? 'warn' : status >= 500 ? 'error' : status >= 400 ? 'warn' : quiet ? 'debug' : 'info';
    if (!state.logger.isLevelEnabled(level)) return;
    req.log[level](
      { req: { method: req.method, url: redactTokens(req.originalUrl) }, res: { statusCode: status }, responseTime: Math.round(ms) },
      finished ? 'request completed' : 'request aborted',
    );
  } catch (err) {
    try {
      state.logger.error({ err }, 'could not log a request');
    } catch {
      // The log itself is broken (its stream throws): nothing left to tell, and the
      // request must not take the process down with it.
    }
  }
}

/**
 * One log line per request when it ends: `request completed` (error for 5xx, warn for
 * 4xx, info otherwise, debug for successful catalogue, static and health reads) or
 * `request aborted` (warn) when the client left first.
 *
 * Why our own and not pino-http (docs/decisions.md): pino-http binds two child loggers
 * to every request, about 40 µs, even when nothing is logged; here `req.id` and
 * `req.log` are built only when something logs, by accessors every request inherits
 * (above), so a request answered by a mounted app that swaps the request's prototype
 * (the queue dashboard) still has them; and the end-of-request listener never throws (a
 * throw there would take the process down). Per request: one small state object and one
 * listener (a shared function), which also hands a sent response to `sent` (the metrics).
 */
export function requestLog(logger: Logger, sent?: ResponseSent): RequestHandler {
  return (req, res, next) => {
    (req as Logged)[STATE] = { logger, started: performance.now(), sent };
    // Emitted once per response, whether it finished or not.
    res.on('close', onClose);
    next();
  };
}

/** A URL as logged: a `token` in its query (a password-reset link opened) never reaches the log. */
export function redactTokens(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}
