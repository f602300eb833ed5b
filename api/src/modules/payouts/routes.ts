import { Router } from 'express';
import { askRefundApprovals, changeRefundWallet, handOn, refundOverpayment, requestPayoutCheck, screeningRefunds, withdrawPayoutCheck } from '@shop/core';
import { createRefundBody, markPaidBody, refundWalletBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp, requireUser } from '../../middleware/auth.ts';
import { audited, signedInActor } from '../../middleware/audit.ts';
import { rateLimit } from '../../middleware/rate-limit.ts';
import { byCreatedAt, enumList, pageQuery, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import * as service from './service.ts';

/**
 * An admin names the transaction that paid a cashout or a refund: the worker checks it
 * on chain before the request is PAID (202 now; the verdict shows on the request).
 */
export async function markPayoutPaid(deps: AppDeps, target: { kind: 'cashout' | 'refund'; id: string }, body: unknown, actorId: string): Promise<void> {
  const { payoutTxHash } = parseBody(markPaidBody, body);
  const { effects } = await requestPayoutCheck({ db: deps.db, config: deps.config, currentPrice: deps.prices.price }, { ...target, txHash: payoutTxHash, actorId });
  // Stored first; the sweeper queues the check again if this fails.
  await handOn(deps.queues, effects, (err) => deps.logger.warn({ err, target }, 'payout check not queued; the sweeper will'));
}

/** What the admin lists need to show whether a payout waits for a second admin. */
export async function approvalView(deps: AppDeps): Promise<service.ApprovalView> {
  return { config: deps.config, price: await deps.prices.price().catch(() => null) };
}

/** Admin: refunds (of transfers and overpayments) in the payout queue, overpaid orders and their refunds. */
export function adminRefundRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (req, res) => {
    const page = pageQuery(req);
    const rows = await service.refundsPage(deps.db, enumList(req, 'status', service.REFUND_STATUSES), page);
    const view = await approvalView(deps);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => service.refundRowsJson(deps.db, shown, view));
  });
  router.get('/overpaid', async (req, res) => {
    const page = pageQuery(req);
    const rows = await service.overpaidPage(deps.db, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => service.overpaidOrders(deps.db, shown, deps.assetPrices.marketOrNull));
  });
  router.post('/', requireStepUp, async (req, res) => {
    const body = parseBody(createRefundBody, req.body);
    // A large refund waits for a second admin: asked for in the creating transaction.
    const price = await deps.prices.price().catch(() => null);
    const actor = signedInActor(req, body.approvalReason);
    const { refundIds } = await refundOverpayment(deps.db, deps.config, { orderId: body.orderId.toLowerCase(), wallet: body.wallet, actorId: req.user!.id }, screeningRefunds(deps.chain, (tx, ids) =>
      askRefundApprovals(tx, deps.config, actor, ids, price),
    ));
    // One refund per transfer that overpaid, each to its own sender (unless a wallet is named).
    const created = await service.refundsJson(deps.db, { id: { in: refundIds } });
    await audited(req, deps.db, {
      action: 'refund.create',
      subject: { type: 'order', id: body.orderId.toLowerCase() },
      after: { refunds: created.map((r) => ({ id: r._id, wallet: r.wallet, amountWei: r.amountWei })) },
    });
    res.status(201).json(await service.refundsJson(deps.db, { id: { in: refundIds } }, await approvalView(deps)));
  });
  router.post('/:id/paid', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Refund');
    await markPayoutPaid(deps, { kind: 'refund', id }, req.body, req.user!.id);
    const refund = (await service.refundsJson(deps.db, { id }, await approvalView(deps)))[0];
    await audited(req, deps.db, { action: 'payout.marked_paid', subject: { type: 'refund', id }, after: { txHash: refund?.check?.txHash ?? null, amountWei: refund?.amountWei ?? null } });
    res.status(202).json(refund);
  });
  router.delete('/:id/paid', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Refund');
    // Only a hash the node never showed (a mistyped one): core/src/payouts.ts.
    await withdrawPayoutCheck(deps, { kind: 'refund', id });
    await audited(req, deps.db, { action: 'payout.hash_withdrawn', subject: { type: 'refund', id } });
    res.json((await service.refundsJson(deps.db, { id }, await approvalView(deps)))[0]);
  });
  return router;
}

/** The address that sent refunded ETH names another wallet for the refund, by signature. */
export function refundRoutes(deps: AppDeps): Router {
  const router = Router();
  const limit = rateLimit(deps, {
    name: 'refund-wallet', limit: deps.config.paymentReportsPerUserPerHour, windowSeconds: 3600, message: 'Too many refund changes from your account',
    keys: (req) => [req.user && `user:${req.user.id}`], failOpen: false,
  });
  router.put('/:id/wallet', requireUser, limit, async (req, res) => {
    const id = parseId(req.params.id, 'Refund');
    const { wallet, signature } = parseBody(refundWalletBody, req.body);
    await changeRefundWallet(deps, { refundId: id, wallet, signature: signature as `0x${string}` });
    res.json((await service.refundsJson(deps.db, { id }))[0]);
  });
  return router;
}
