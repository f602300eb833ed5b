import { pino, type DestinationStream, type Logger } from 'pino';
import { redactUrlsIn, scrubUrls } from './secret-urls.ts';

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

/**
 * `secretUrls`: URLs that carry credentials or API keys (the node's, the database's):
 * an error logged under `err` (or `error`) never shows them, whatever library wrote
 * them into its message (the chain client already takes them out of its own errors).
 */
export function createLogger(opts: { level: string; name?: string; secretUrls?: string[] }, destination?: DestinationStream): Logger {
  const urls = (opts.secretUrls ?? []).filter(Boolean);
  const err = (value: unknown) => {
    const serialized = value instanceof Error ? pino.stdSerializers.err(value) : value;
    return typeof serialized === 'string' ? redactUrlsIn(serialized, urls) : scrubUrls(serialized, urls);
  };
  return pino(
    {
      level: opts.level,
      name: opts.name,
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: { service: opts.name },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: urls.length > 0 ? { err, error: err } : {},
    },
    destination,
  );
}
