import { Router, type Request, type Response } from 'express';
import { updateProductBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import { notFound } from '../../errors.ts';
import type { CachedJson, CatalogueCache } from './catalogue-cache.ts';
import * as products from './service.ts';

function sendCached(req: Request, res: Response, cached: CachedJson): void {
  res.setHeader('ETag', cached.etag);
  res.type('json');
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.send(cached.body);
}

/** The public reads: no session, no body; served from the catalogue cache. */
export function catalogueRoutes({ db }: AppDeps, cache: CatalogueCache): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    sendCached(req, res, (await cache.get('list', () => products.listProducts(db)))!);
  });

  router.get('/:id', async (req, res) => {
    const id = parseId(req.params.id, 'Product');
    const cached = await cache.get(id, () => products.findProduct(db, id));
    if (!cached) throw notFound(products.NOT_FOUND);
    sendCached(req, res, cached);
  });

  return router;
}

/** The admin's writes; each one empties the catalogue cache. */
export function productRoutes({ db }: AppDeps, cache: CatalogueCache): Router {
  const router = Router();
  // Invalidated after the write commits: reads that started earlier are not kept.
  router.post('/', requireAdmin, async (_req, res) => {
    const created = await products.createSampleProduct(db);
    cache.invalidate();
    res.status(201).json(created);
  });

  router.put('/:id', requireAdmin, async (req, res) => {
    const id = parseId(req.params.id, 'Product');
    const input = parseBody(updateProductBody, req.body);
    const updated = await products.updateProduct(db, id, input);
    cache.invalidate();
    res.json(updated);
  });

  router.delete('/:id/delete', requireAdmin, async (req, res) => {
    await products.deleteProduct(db, parseId(req.params.id, 'Product'));
    cache.invalidate();
    res.json({ message: 'Product deleted' });
  });

  return router;
}
