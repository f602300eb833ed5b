import { Router } from 'express';
import type { ShopConfigJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';

/** What GET /api/config answers, and what the pages drawn on the server put in their cache. */
export function shopConfigOf(config: Pick<AppDeps['config'], 'network' | 'displayCurrencies'>): ShopConfigJson {
  return { network: config.network, displayCurrencies: config.displayCurrencies };
}

/**
 * GET /api/config: what every page needs to know about this shop before it draws, the
 * network above all (core/src/contract/network.ts): its name, whether it is a test
 * network (the banner), whether it is a development chain (the dev wallet) and its
 * explorer. Public and the same for everyone; browsers may keep it a minute.
 */
export function shopConfigRoutes(deps: AppDeps): Router {
  const router = Router();
  const body = shopConfigOf(deps.config);
  router.get('/', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.json(body);
  });
  return router;
}
