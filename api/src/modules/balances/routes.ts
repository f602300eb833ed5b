import { Router } from 'express';
import { cancelByLink, exchangeBalance, previewCashout, requestCashout, withTimeout } from '@shop/core';
import { cancelCashoutBody, cashoutBody, exchangeBody, usdNumber, type CashoutCancelJson, type CashoutPreviewJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { accountGuards } from '../../middleware/accounts.ts';
import { requireStepUp, requireStepUpForMoneyOut, requireUser } from '../../middleware/auth.ts';
import { auditContext } from '../../middleware/audit.ts';
import { parseBody } from '../../middleware/validate.ts';
import { getUserJson } from '../profile/service.ts';

/** The signed-in user's balances (under /api/users): the exchange, a cashout, and a cashout's cancel link. The rules are core's (balances.ts, cashout-holds.ts). */
export function balanceRoutes(deps: AppDeps): Router {
  const { db, config } = deps;
  const router = Router();
  const { authLimit, handOnAfter } = accountGuards(deps);

  // An exchange cannot be undone: with a second factor on, it needs one in the last minutes.
  // The body is optional (no amount: the whole active balance, as SPEC.md's call sends it).
  router.post('/exchange', requireUser, requireStepUp, async (req, res) => {
    const { amount, requestId } = parseBody(exchangeBody, req.body ?? {});
    await exchangeBalance(db, req.user!.id, { amount, requestId });
    const user = await getUserJson(db, req.user!.id);
    res.json({ message: 'Balance exchanged!', activeBalance: user.activeBalance, passiveBalance: user.passiveBalance });
  });

  // What a cashout to this wallet would do (the amount, whether the wallet is new and it
  // waits), for the page to show before the user confirms; nothing is written.
  router.post('/cashout/preview', requireUser, async (req, res) => {
    const { wallet } = parseBody(cashoutBody, req.body);
    const plan = await previewCashout(db, config, { userId: req.user!.id, wallet });
    const answer: CashoutPreviewJson = { amountUsd: usdNumber(plan.amount), wallet: plan.wallet, newWallet: plan.newWallet, holdUntil: plan.holdUntil?.toISOString() ?? null };
    res.json(answer);
  });

  // Money leaving the account: with a second factor on, one given for it, after sign-in.
  router.post('/cashout', requireUser, requireStepUpForMoneyOut, async (req, res) => {
    const { wallet } = parseBody(cashoutBody, req.body);
    // The price is recorded for the operator when the feed answers; a cashout does not wait for it.
    const price = await withTimeout(deps.prices.current(), 2_000).catch(() => undefined);
    const { effects } = await requestCashout(db, config, { userId: req.user!.id, wallet, ethUsd: price?.price });
    // Stored first, then the notices are queued; the sweeper re-queues them if this fails.
    await handOnAfter(req, effects);
    res.json(await getUserJson(db, req.user!.id));
  });

  // The link of the new-wallet e-mail (no session: the token is the owner's word). The
  // e-mail's link opens a page that asks first; this POST is what its button sends.
  router.post('/cashout/cancel', authLimit('cashout-cancel'), async (req, res) => {
    const { token } = parseBody(cancelCashoutBody, req.body);
    const outcome = await cancelByLink(db, auditContext(req, null), token);
    const answer: CashoutCancelJson = { ...outcome, returnedUsd: usdNumber(outcome.returnedUsd) };
    res.json(answer);
  });

  return router;
}
