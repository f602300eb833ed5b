import { Router } from 'express';
import { getEthUsd } from '@shop/core';
import type { AppDeps } from '../../deps.ts';

export function cryptoRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/eth-price', async (_req, res) => {
    const price = await getEthUsd(deps);
    res.json({ price: price.price, updatedAt: price.updatedAt.toISOString() });
  });
  return router;
}
