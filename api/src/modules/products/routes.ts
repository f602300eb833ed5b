import { Router } from 'express';
import { updateProductBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import * as products from './service.ts';

export function productRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = Router();

  router.get('/', async (_req, res) => {
    res.json(await products.listProducts(db));
  });

  router.get('/:id', async (req, res) => {
    res.json(await products.getProduct(db, parseId(req.params.id, 'Product')));
  });

  router.post('/', requireAdmin, async (_req, res) => {
    res.status(201).json(await products.createSampleProduct(db));
  });

  router.put('/:id', requireAdmin, async (req, res) => {
    const id = parseId(req.params.id, 'Product');
    const input = parseBody(updateProductBody, req.body);
    res.json(await products.updateProduct(db, id, input));
  });

  router.delete('/:id/delete', requireAdmin, async (req, res) => {
    await products.deleteProduct(db, parseId(req.params.id, 'Product'));
    res.json({ message: 'Product deleted' });
  });

  return router;
}
