import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { currentPrice } from '../orders/service.ts';

export function cryptoRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/eth-price', async (_req, res) => {
    const price = await currentPrice(deps);
    res.json({ price: price.price, updatedAt: price.updatedAt.toISOString() });
  });
  return router;
}
