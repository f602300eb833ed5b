import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';
import { parseId } from '../../middleware/validate.ts';
import { approvalView } from '../payouts/routes.ts';
import { adminOrderDetail } from './service.ts';

/** Admin: one order with its transfers, refunds and webhook deliveries (the list is GET /api/orders). */
export function adminOrderRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/:id', async (req, res) => {
    const id = parseId(req.params.id, 'Order');
    res.json(await adminOrderDetail(deps, await approvalView(deps), id));
  });
  return router;
}
