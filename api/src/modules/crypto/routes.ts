import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';

export function cryptoRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/eth-price', async (_req, res) => {
    const price = await deps.prices.current();
    res.json({ price: price.price, updatedAt: price.updatedAt.toISOString() });
  });
  return router;
}
