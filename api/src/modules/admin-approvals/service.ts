import { packageStock, Prisma, type Db, type PackageChange } from '@shop/core';
import { usdNumber, type ApprovalJson, type ApprovalStatus } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

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
    const change = r.kind === 'BALANCE_INCREASE' ? (r.change as { active: string; passive: string } | null) : null;
    const pkg = r.kind === 'PACKAGE' ? (r.change as PackageChange) : null;
    return {
      _id: r.id,
      kind: r.kind,
      status: r.status,
      subject: { type: r.subjectType as ApprovalJson['subject']['type'], id: r.subjectId },
      beneficiary: beneficiary ? { _id: beneficiary.id, name: beneficiary.name, email: beneficiary.email } : null,
      amountUsd: r.kind === 'PAYOUT' && r.amountUsd.isZero() ? null : usdNumber(r.amountUsd),
      reason: r.reason,
      wallet: r.wallet,
      change: change ? { active: change.active, passive: change.passive } : null,
      package: pkg
        ? { name: pkg.name, publish: pkg.publish, price: pkg.price, dailyCredit: pkg.dailyCredit, durationDays: pkg.durationDays, was: pkg.was, stockAdded: pkg.stockAdded, ...packageStock(pkg) }
        : null,
      requestedBy: person(r.requestedById),
      decidedBy: person(r.decidedById),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/** One page of approvals, newest first, optionally by status (index Approval(status, createdAt, id)). */
export function approvalsPage(db: Db, status: ApprovalStatus[] | undefined, page: PageQuery): Promise<Row[]> {
  return db.approval.findMany({
    where: { ...(status ? { status: { in: status } } : {}), ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.ApprovalWhereInput) },
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.ApprovalOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}
