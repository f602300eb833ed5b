import { Router } from 'express';
import { askRefundApprovals, assignTransfer, handOn, refundPayment } from '@shop/core';
import { assignPaymentBody, PAYMENT_STATUSES, refundTransferBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { audited, signedInActor } from '../../middleware/audit.ts';
import { byCreatedAt, enumList, pageQuery, searchTerm, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import { orderIdFor } from '../orders/order-lookup.ts';
import * as service from './service.ts';

/** Admin view of transfers no order claimed by itself: assign them, or request their refund. */
export function adminPaymentRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);

  router.get('/', async (req, res) => {
    const page = pageQuery(req);
    const statuses = enumList(req, 'status', PAYMENT_STATUSES) ?? ['UNRESOLVED', 'LATE'];
    const rows = await service.paymentsPage(deps.db, statuses, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => service.listPayments(deps.db, shown));
  });

  // The open orders this transfer can be assigned to: those the admin names, or its buyer's.
  router.get('/:id/orders', async (req, res) => {
    const id = parseId(req.params.id, 'Payment');
    res.json(await service.assignableOrders(deps.db, id, searchTerm(req)));
  });

  router.post('/:id/assign', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Payment');
    const { orderId } = parseBody(assignPaymentBody, req.body);
    // By its id or by the reference people see (ORD-…).
    const order = await orderIdFor(deps.db, orderId);
    const result = await assignTransfer({ ...deps, currentAnswer: deps.assetPrices.valuation }, id, order);
    await audited(req, deps.db, { action: 'payment.assign', subject: { type: 'payment', id }, after: { orderId: order, status: result.status, orderStatus: result.orderStatus } });
    await handOn(deps.queues, result.effects, (err, effect) => req.log.warn({ err, effect: effect.kind }, 'not handed on; the sweeper will'));
    res.json({ status: result.status, orderStatus: result.orderStatus });
  });

  // A refund request in the payout queue (paid and verified from the Cashouts page).
  router.post('/:id/refund', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Payment');
    const body = parseBody(refundTransferBody, req.body ?? {});
    // A large refund waits for a second admin: asked for in the creating transaction.
    const price = await deps.prices.price().catch(() => null);
    const actor = signedInActor(req, body.approvalReason);
    let asked = 0;
    const { refundId } = await refundPayment(deps, { paymentId: id, wallet: body.wallet, actorId: req.user!.id }, async (tx, ids) => {
      asked = (await askRefundApprovals(tx, deps.config, actor, ids, price)).length;
    });
    await audited(req, deps.db, { action: 'refund.create', subject: { type: 'payment', id }, after: { refundId, wallet: body.wallet ?? null } });
    res.status(201).json({ message: asked ? 'Refund requested. A second admin must approve it before it is paid.' : 'Refund requested.', refundId, awaitsApproval: asked > 0 });
  });
  return router;
}
