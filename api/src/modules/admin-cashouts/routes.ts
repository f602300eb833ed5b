import { Router } from 'express';
import { markCashoutPaid, rejectCashout, type Db } from '@shop/core';
import { markCashoutPaidBody, usdToEth, type CashoutJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import { conflict, notFound } from '@shop/core';

async function cashoutJson(db: Db, id: string): Promise<CashoutJson> {
  const c = await db.cashoutRequest.findUnique({ where: { id }, include: { user: { select: { id: true, name: true, email: true } } } });
  if (!c) throw notFound('Cashout request not found');
  return toJson(c);
}

function toJson(c: Awaited<ReturnType<typeof listRows>>[number]): CashoutJson {
  const amountEth = c.ethUsd ? (usdToEth(c.amountUsd.toFixed(2), c.ethUsd.toFixed(8)) ?? null) : null;
  return {
    _id: c.id,
    user: { _id: c.user.id, name: c.user.name, email: c.user.email },
    wallet: c.wallet,
    amountUsd: Number(c.amountUsd.toFixed(2)),
    ethUsd: c.ethUsd?.toFixed(8) ?? null,
    amountEth,
    status: c.status,
    payoutTxHash: c.payoutTxHash,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

function listRows(db: Db) {
  return db.cashoutRequest.findMany({ include: { user: { select: { id: true, name: true, email: true } } }, orderBy: { createdAt: 'desc' }, take: 1000 });
}

/** Admin handling of cashout requests: list, mark paid with the payout hash, reject. */
export function adminCashoutRoutes({ db }: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (_req, res) => {
    res.json((await listRows(db)).map(toJson));
  });
  router.post('/:id/paid', async (req, res) => {
    const id = parseId(req.params.id, 'Cashout request');
    const { payoutTxHash } = parseBody(markCashoutPaidBody, req.body);
    if (!(await markCashoutPaid(db, id, payoutTxHash))) {
      await cashoutJson(db, id); // 404 when it does not exist
      throw conflict('This cashout request is already settled');
    }
    res.json(await cashoutJson(db, id));
  });
  router.post('/:id/reject', async (req, res) => {
    const id = parseId(req.params.id, 'Cashout request');
    if (!(await rejectCashout(db, id))) {
      await cashoutJson(db, id);
      throw conflict('This cashout request is already settled');
    }
    res.json(await cashoutJson(db, id));
  });
  return router;
}
