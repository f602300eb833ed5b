import { Router } from 'express';
import { askPayoutApproval, decideApproval, Prisma, type Db } from '@shop/core';
import { APPROVAL_STATUSES, askApprovalBody, type ApprovalJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { signedInActor } from '../../middleware/audit.ts';
import { byCreatedAt, enumList, keysetOrder, keysetWhere, pageQuery, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';

type Row = Prisma.ApprovalGetPayload<object>;

/** The JSON of approvals, with the e-mails of the admins and the user involved (one query for the page). */
export async function approvalsJson(db: Db, rows: Row[]): Promise<ApprovalJson[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.requestedById, r.decidedById, r.beneficiaryId].filter((v): v is string => v !== null)))];
  const users = new Map((await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } })).map((u) => [u.id, u]));
  const person = (id: string | null) => {
    const u = id ? users.get(id) : undefined;
    return u ? { _id: u.id, email: u.email } : null;
  };
  return rows.map((r) => {
    const beneficiary = r.beneficiaryId ? users.get(r.beneficiaryId) : undefined;
    const change = r.change as { active: string; passive: string } | null;
    return {
      _id: r.id,
      kind: r.kind,
      status: r.status,
      subject: { type: r.subjectType as ApprovalJson['subject']['type'], id: r.subjectId },
      beneficiary: beneficiary ? { _id: beneficiary.id, name: beneficiary.name, email: beneficiary.email } : null,
      amountUsd: r.kind === 'PAYOUT' && r.amountUsd.isZero() ? null : Number(r.amountUsd.toFixed(2)),
      wallet: r.wallet,
      change: change ? { active: change.active, passive: change.passive } : null,
      requestedBy: person(r.requestedById),
      decidedBy: person(r.decidedById),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/**
 * Admins: large money moves waiting for a second admin (core/src/approvals.ts). List
 * (newest first, `status` filter; index Approval(status, createdAt, id)), ask for a
 * payout's approval, approve (a second factor in the last 10 minutes, never one's own
 * request nor money to oneself), reject (the requester may withdraw their own).
 */
export function adminApprovalRoutes(deps: AppDeps): Router {
  const { db, config } = deps;
  const router = Router();
  router.use(requireAdmin);

  router.get('/', async (req, res) => {
    const page = pageQuery(req);
    const status = enumList(req, 'status', APPROVAL_STATUSES);
    const rows = await db.approval.findMany({
      where: { ...(status ? { status: { in: status } } : {}), ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.ApprovalWhereInput) },
      orderBy: keysetOrder('createdAt', 'desc') as Prisma.ApprovalOrderByWithRelationInput[],
      take: page.limit + 1,
    });
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => approvalsJson(db, shown));
  });

  router.post('/', async (req, res) => {
    const target = parseBody(askApprovalBody, req.body);
    const row = await askPayoutApproval(db, config, signedInActor(req), { kind: target.kind, id: target.id.toLowerCase() }, deps.prices.price);
    res.status(201).json((await approvalsJson(db, [row]))[0]);
  });

  router.post('/:id/approve', requireStepUp, async (req, res) => {
    const row = await decideApproval(db, signedInActor(req), { id: parseId(req.params.id, 'Approval'), approve: true });
    res.json((await approvalsJson(db, [row]))[0]);
  });

  router.post('/:id/reject', async (req, res) => {
    const row = await decideApproval(db, signedInActor(req), { id: parseId(req.params.id, 'Approval'), approve: false });
    res.json((await approvalsJson(db, [row]))[0]);
  });
  return router;
}
