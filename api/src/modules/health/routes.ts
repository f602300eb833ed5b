import { Router } from 'express';
import { sameSecret } from '@shop/core';
import type { AppDeps } from '../../deps.ts';
import { getHealth, publicHealth, type HealthDetails } from './service.ts';

/**
 * GET /api/health: 200 when every dependency works, 503 otherwise. Anyone sees ok or
 * degraded per dependency, answered from one round of checks per HEALTH_CACHE_MS (a flood
 * of anonymous requests costs the node, the database and Redis one round); signed-in
 * admins and the metrics scraper (METRICS_TOKEN as a bearer token) also see the details,
 * from a round of their own.
 */
export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  const rounds = healthRounds(deps, deps.config.healthCacheMs);
  router.get('/', async (req, res) => {
    const token = deps.config.metricsToken;
    const privileged = req.user?.isAdmin === true || (token !== undefined && sameSecret(req.headers.authorization, `Bearer ${token}`));
    const health = await (privileged ? rounds.fresh() : rounds.recent());
    if (privileged) res.setHeader('Cache-Control', 'private, no-store');
    res.status(health.status === 'ok' ? 200 : 503).json(privileged ? health : publicHealth(health));
  });
  return router;
}

/**
 * The rounds of health checks of one api process: `recent()` shares the latest round while
 * it is younger than `maxAgeMs` (counted from its start, so concurrent requests share the
 * round in flight), `fresh()` runs a new one, which later `recent()` calls share.
 */
function healthRounds(deps: AppDeps, maxAgeMs: number) {
  let latest: { startedAt: number; health: Promise<HealthDetails> } | undefined;
  const fresh = (): Promise<HealthDetails> => {
    const round = { startedAt: Date.now(), health: getHealth(deps) };
    latest = round;
    // A round that failed outright (it should not: each check catches its own) is not shared.
    round.health.catch(() => {
      if (latest === round) latest = undefined;
    });
    return round.health;
  };
  const recent = (): Promise<HealthDetails> => (latest && Date.now() - latest.startedAt < maxAgeMs ? latest.health : fresh());
  return { fresh, recent };
}
