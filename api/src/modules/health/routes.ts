import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { getHealth } from './service.ts';

export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    const health = await getHealth(deps);
    res.status(health.status === 'ok' ? 200 : 503).json(health);
  });
  return router;
}
