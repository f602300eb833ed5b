import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { ethPrice } from './service.ts';

export function cryptoRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/eth-price', async (_req, res) => {
    res.json(await ethPrice(deps.prices));
  });
  return router;
}
