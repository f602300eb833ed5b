import { z } from 'zod';
import { isoTime } from './json-parts.ts';

const dependencyState = z.enum(['ok', 'degraded']);

/** GET /api/health: ok or degraded per dependency (503 unless all are ok); admins and the metrics scraper also get `details`. */
export const healthJson = z.object({
  status: dependencyState,
  checks: z.object({ database: dependencyState, redis: dependencyState, chain: dependencyState, queues: dependencyState }),
  details: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
export type HealthJson = z.infer<typeof healthJson>;

/** GET /api/crypto/eth-price: ETH in USD (8 decimals, as the feed gives it) and when the feed last moved. */
export const ethPriceJson = z.object({ price: z.string(), updatedAt: isoTime });
export type EthPriceJson = z.infer<typeof ethPriceJson>;
