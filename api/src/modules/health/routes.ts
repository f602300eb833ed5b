import { Router } from 'express';
import { sameSecret } from '@shop/core';
import type { AppDeps } from '../../deps.ts';
import { getHealth, publicHealth } from './service.ts';

/**
 * GET /api/health: 200 when every dependency works, 503 otherwise. Anyone sees ok or
 * degraded per dependency; signed-in admins and the metrics scraper (METRICS_TOKEN as a
 * bearer token) also see the details.
 */
export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const health = await getHealth(deps);
    const token = deps.config.metricsToken;
    const privileged = req.user?.isAdmin === true || (token !== undefined && sameSecret(req.headers.authorization, `Bearer ${token}`));
    res.status(health.status === 'ok' ? 200 : 503).json(privileged ? health : publicHealth(health));
  });
  return router;
}
