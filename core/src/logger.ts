import { pino, type Logger } from 'pino';

export type { Logger };

export const redactPaths = [
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'token',
  '*.token',
];

export function createLogger(opts: { level: string; name?: string }): Logger {
  return pino({
    level: opts.level,
    name: opts.name,
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: { service: opts.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
