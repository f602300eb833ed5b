import { Router } from 'express';
import { enqueue } from '@shop/core';
import { createOrderBody, reportPaymentBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireUser } from '../../middleware/auth.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import * as orders from './service.ts';

export function orderRoutes(deps: AppDeps): Router {
  const { db, queues } = deps;
  const router = Router();

  router.post('/', requireUser, async (req, res) => {
    const input = parseBody(createOrderBody, req.body);
    res.status(201).json(await orders.createOrder(deps, req.user!.id, input));
  });

  router.get('/mine', requireUser, async (req, res) => {
    res.json(await orders.listMyOrders(db, req.user!.id));
  });

  router.get('/', requireAdmin, async (_req, res) => {
    res.json(await orders.listAllOrders(db));
  });

  router.get('/:id', requireUser, async (req, res) => {
    res.json(await orders.getOrderDetail(deps, req.user!, parseId(req.params.id, 'Order')));
  });

  router.put('/:id/purchased', requireUser, async (req, res) => {
    const id = parseId(req.params.id, 'Order');
    const { txHash } = parseBody(reportPaymentBody, req.body);
    const result = await orders.reportPayment(db, req.user!, id, txHash);
    if (result.status === 'PENDING') {
      // Deterministic job id: any number of reports of one hash make one job.
      await enqueue(queues, 'payment-verify', { paymentId: result.paymentId, txHash }, { jobId: `verify-${txHash}` });
    }
    res.status(202).json({ status: result.status });
  });

  router.delete('/:id/delete', requireAdmin, async (req, res) => {
    await orders.deleteOrder(db, parseId(req.params.id, 'Order'));
    res.json({ message: 'Order deleted' });
  });

  return router;
}
