import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { Logger } from '@shop/core';

/** Successful reads of these paths are logged at debug: most of the traffic, and counted by the metrics. */
const QUIET_PREFIXES = ['/api/products', '/uploads/', '/assets/', '/images/'];

function isQuiet(req: IncomingMessage): boolean {
  const url = (req as Request).originalUrl ?? req.url ?? '';
  const path = url.split('?', 1)[0] ?? url;
  return path === '/api/health' || QUIET_PREFIXES.some((p) => path.startsWith(p));
}

/**
 * One log line per request when it ends (pino-http): error for 5xx, warn for 4xx and
 * for requests the client abandoned, info otherwise, and debug for successful
 * catalogue, static and health reads. `req.log` is a child logger bound to the request
 * id (`x-request-id`, cut to 100 characters, or a generated one). pino-http sets it on
 * the request object itself, so requests answered by a mounted sub-app (the queue
 * dashboard is a separate Express app) keep it.
 */
export function requestLog(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (req) => {
      const header = req.headers['x-request-id'];
      return typeof header === 'string' && header !== '' ? header.slice(0, 100) : randomUUID();
    },
    customLogLevel: (req, res, err) => {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400 || !res.writableEnded) return 'warn';
      return req.method === 'GET' && isQuiet(req) ? 'debug' : 'info';
    },
    serializers: {
      req: (req: IncomingMessage & { raw?: IncomingMessage }) => {
        const raw = (req.raw ?? req) as Request;
        return { method: raw.method, url: raw.originalUrl ?? raw.url };
      },
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    wrapSerializers: false,
  });
}
