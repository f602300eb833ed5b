import { Router } from 'express';
import { acceptAuthorization, cancelOrder, claimTransfer, createOrderDesk, creditOverpayment, deleteOrder, handOn, jobs, recordPaymentReport, refundOverpayment, screeningRefunds } from '@shop/core';
import { authorizationBody, claimPaymentBody, createOrderBody, LISTED_ORDER_STATUSES, orderView, overpaymentBody, reportPaymentBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp, requireUser } from '../../middleware/auth.ts';
import { audited } from '../../middleware/audit.ts';
import { rateLimit } from '../../middleware/rate-limit.ts';
import { byCreatedAt, dateParam, enumList, pageQuery, searchTerm, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import type { CatalogueCache } from '../products/catalogue-cache.ts';
import * as orders from './service.ts';

/** Placing, cancelling and deleting orders move stock, so each drops the cached catalogue entries of its packages. */
export function orderRoutes(deps: AppDeps, catalogue: CatalogueCache): Router {
  const { db, queues, config } = deps;
  const router = Router();
  // Reports and claims share one budget per account and per order. Each report costs the
  // node requests until the hash is found or given up on: a user cannot make that load
  // for everyone else. While Redis is down reports are let through (the hash is kept for
  // the sweeper; the database still caps the hashes waiting per order); claims, which
  // cost a signature check and a trace that nothing else caps, get a 503.
  const reportBudget = (failOpen: boolean) => [
    rateLimit(deps, {
      name: 'report-user', limit: config.paymentReportsPerUserPerHour, windowSeconds: 3600, message: 'Too many payment reports from your account',
      keys: (req) => [req.user && `user:${req.user.id}`], failOpen,
    }),
    rateLimit(deps, {
      name: 'report-order', limit: config.paymentReportsPerOrderPerHour, windowSeconds: 3600, message: 'Too many payment reports for this order',
      keys: (req) => [`order:${String(req.params.id).toLowerCase().slice(0, 64)}`], failOpen,
    }),
  ];
  const reportLimits = reportBudget(true);
  const claimLimits = reportBudget(false);

  // Orders arriving together are placed together (one transaction per batch).
  const desk = createOrderDesk(deps);
  router.post('/', requireUser, async (req, res) => {
    const input = parseBody(createOrderBody, req.body);
    try {
      const placed = await desk.place(req.user!.id, input);
      res.status(201).json(orderView({ ...placed, user: { id: req.user!.id, name: req.user!.name } }));
    } finally {
      // Also after a refusal for stock: the buyer's next look at the package is fresh. Only
      // what shows these packages is dropped; the rest of the catalogue stays cached.
      catalogue.invalidateProducts(input.orderedItems.map((i) => i._id.toLowerCase()));
    }
  });

  router.get('/mine', requireUser, async (req, res) => {
    const page = pageQuery(req);
    const rows = await orders.myOrdersPage(db, req.user!, enumList(req, 'status', LISTED_ORDER_STATUSES), page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => shown.map((o) => orderView(o)));
  });

  router.get('/', requireAdmin, async (req, res) => {
    const page = pageQuery(req);
    const filter: orders.OrderFilter = {
      status: enumList(req, 'status', LISTED_ORDER_STATUSES),
      from: dateParam(req, 'from'),
      to: dateParam(req, 'to', { end: true }),
      q: searchTerm(req),
    };
    const rows = await orders.allOrdersPage(db, filter, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => shown.map(orders.adminOrderJson));
  });

  router.get('/:id', requireUser, async (req, res) => {
    res.json(await orders.getOrderDetail(deps, req.user!, parseId(req.params.id, 'Order')));
  });

  router.put('/:id/purchased', requireUser, ...reportLimits, async (req, res) => {
    const id = parseId(req.params.id, 'Order');
    const { txHash, asset } = parseBody(reportPaymentBody, req.body);
    const result = await recordPaymentReport(db, config, req.user!, id, txHash, asset);
    // One job per hash, however often it is reported.
    if (result.status === 'PENDING' && result.paymentId) await jobs.verifyPayment(queues, { paymentId: result.paymentId, txHash });
    res.status(202).json({ status: result.status });
  });

  // A transfer that lost its tag, claimed by a signature of the address that sent it.
  router.put('/:id/claim', requireUser, ...claimLimits, async (req, res) => {
    const orderId = parseId(req.params.id, 'Order');
    const { txHash, signature } = parseBody(claimPaymentBody, req.body);
    const result = await claimTransfer({ ...deps, currentAnswer: deps.assetPrices.valuation }, {
      userId: req.user!.id,
      orderId,
      txHash,
      signature: signature as `0x${string}`,
    });
    await handOn(queues, result.effects, (err, effect) => req.log.warn({ err, effect: effect.kind }, 'not handed on; the sweeper will'));
    res.json({ status: result.status, orderStatus: result.orderStatus });
  });

  // A buyer's signed payment (EIP-3009, USDC): checked here, then sent and paid for by the
  // relay (core/src/relay/). Each costs node reads, and each one sent may cost the shop gas:
  // the report budget's limits per account and per order, and the relay's own limit on a
  // buyer's failed ones (acceptAuthorization). Redis down: refused (503), as claims are.
  router.post('/:id/authorization', requireUser, ...claimLimits, async (req, res) => {
    const orderId = parseId(req.params.id, 'Order');
    const body = parseBody(authorizationBody, req.body);
    const accepted = await acceptAuthorization(deps, req.user!, orderId, body);
    await jobs.relayAuthorization(queues, accepted.id).catch((err: unknown) => req.log.warn({ err, authorization_id: accepted.id }, 'relay job not queued; the payment sweep will'));
    res.status(202).json({ _id: accepted.id, status: accepted.status, message: accepted.message });
  });

  // The buyer's choice for what a paid order received beyond its total: active balance,
  // or a refund (in the payout queue) to the address that sent it.
  router.post('/:id/overpayment', requireUser, async (req, res) => {
    const orderId = parseId(req.params.id, 'Order');
    const { action } = parseBody(overpaymentBody, req.body);
    const user = req.user!;
    if (action === 'balance') {
      const { credited } = await creditOverpayment(db, { orderId, userId: user.id, currentAnswer: deps.assetPrices.market });
      res.json({ message: `$${credited} added to your active balance`, credited });
    } else {
      const { refundIds, left } = await refundOverpayment(db, config, { orderId, actorId: user.id, buyerId: user.id }, screeningRefunds(deps.chain));
      const sent = refundIds.length > 1 ? 'Refunds requested: each will be sent to the address that paid it' : 'Refund requested: it will be sent to the address that paid';
      res.json({ message: left > 0 ? `${sent}. Part of it was not sent by a single address: the shop will refund it to a wallet you name` : sent, refunds: refundIds.length, rest: left > 0 });
    }
  });

  // The buyer's own unpaid order: its stock and its place among unpaid orders are free at once.
  router.post('/:id/cancel', requireUser, async (req, res) => {
    const cancelled = await cancelOrder(db, { orderId: parseId(req.params.id, 'Order'), userId: req.user!.id });
    const order = await orders.orderJsonById(db, cancelled.id);
    catalogue.invalidateProducts(order.orderedItems.map((i) => i.product));
    res.json({ message: 'Order cancelled', order });
  });

  router.delete('/:id/delete', requireAdmin, requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Order');
    await deleteOrder(db, id);
    catalogue.invalidate();
    await audited(req, db, { action: 'order.delete', subject: { type: 'order', id } });
    res.json({ message: 'Order deleted' });
  });

  return router;
}
