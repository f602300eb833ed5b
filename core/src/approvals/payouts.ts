import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { conflict, UserError } from '../infra/errors.ts';
import type { Tx } from '../books/ledger.ts';
import type { PayoutApprovalJson } from '../contract/approvals.ts';
import type { PayoutTarget } from '../infra/queues.ts';
import { APPROVAL_NEEDED_DETAIL, APPROVAL_WINDOW_MS, createApproval, type AdminAudit, type ApprovalRow } from './requests.ts';
import { payoutNeedsApproval, payoutWorth, refundWorth, sameWallet, threshold, usd, type PayoutWorth } from './worth.ts';
import { cashoutWindows } from './windows.ts';

/**
 * A cashout or refund worth more than the threshold cannot be marked paid until a second
 * admin approved paying it: an admin asks before sending the ETH; a large refund asks
 * when it is created.
 */

/**
 * Inside the transaction that records a payout as sent by `payerId` (the payout row
 * locked): a payout worth more than the threshold, or a cashout that would take the
 * payer's or a package's last 24 hours past it (windows.ts), needs an approved approval,
 * else 409 `approvalRequired`. A cashout let through is counted in its package's window
 * from now on.
 */
export async function requirePayoutApproval(
  tx: Tx,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  target: PayoutTarget,
  worth: PayoutWorth,
  wallet: string,
  payerId: string,
): Promise<void> {
  // Once asked for (a refund created with others that together are large), it is needed whatever the payout's own worth.
  const asked = await tx.approval.findMany({ where: { kind: 'PAYOUT', subjectId: target.id }, select: { status: true, wallet: true } });
  const windows = target.kind === 'cashout' ? await cashoutWindows(tx, config, { cashoutId: target.id, payerId, lock: true }) : null;
  // Approved for the wallet it now pays (a refund redirected since needs a new approval).
  if (!asked.some((a) => a.status === 'APPROVED' && sameWallet(a.wallet, wallet))) {
    const counted = target.kind === 'cashout' ? "(with the same user's cashouts of the 24 hours before it) " : '';
    const what =
      worth === null ? 'cannot be valued now (no ETH price)'
      : payoutNeedsApproval(config, worth) || asked.length > 0 ? `${counted}is worth ${usd(worth)}`
      : windows?.over;
    if (what) {
      throw new UserError(
        409,
        `This payout ${what}, more than the ${usd(threshold(config))} one admin may pay alone: a second admin must approve it (Admin > Approvals) before it is sent.`,
        undefined,
        APPROVAL_NEEDED_DETAIL,
      );
    }
  }
  await windows?.record();
}

/**
 * An admin asks a second admin to approve paying a large cashout or refund (before
 * sending its ETH). Returns the open approval when one exists already.
 */
export async function askPayoutApproval(
  db: Db,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  audit: AdminAudit,
  target: PayoutTarget,
  currentPrice?: () => Promise<string>,
  reason?: string,
): Promise<ApprovalRow> {
  try {
    return await db.$transaction((tx) => openPayoutApproval(tx, config, audit, target, currentPrice, { reason }));
  } catch (err) {
    // Two admins asked at once: the partial unique index kept one.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      const row = await db.approval.findFirst({ where: { kind: 'PAYOUT', subjectId: target.id, status: { in: ['PENDING', 'APPROVED'] } } });
      if (row) return row;
    }
    throw err;
  }
}

/** askPayoutApproval inside the caller's transaction (`together`: asked for with other refunds, whatever its own worth). */
async function openPayoutApproval(
  tx: Tx,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  audit: AdminAudit,
  target: PayoutTarget,
  currentPrice?: () => Promise<string>,
  opts: { together?: boolean; reason?: string } = {},
): Promise<ApprovalRow> {
  const table = target.kind === 'cashout' ? Prisma.sql`"CashoutRequest"` : Prisma.sql`"Refund"`;
  await tx.$queryRaw`SELECT "id" FROM ${table} WHERE "id" = ${target.id}::uuid FOR UPDATE`;
  const { worth, counted, beneficiaryId, open: isOpen, wallet } = await payoutWorth(tx, target, currentPrice);
  if (!isOpen) throw conflict(target.kind === 'cashout' ? 'This cashout request is already settled' : 'This refund is already paid');
  const askedBefore = await tx.approval.count({ where: { kind: 'PAYOUT', subjectId: target.id } });
  // A cashout is also counted with what the asking admin (who will pay it) and its packages paid out in 24 hours.
  const windows = target.kind === 'cashout' && !opts.together ? await cashoutWindows(tx, config, { cashoutId: target.id, payerId: audit.actor.id }) : null;
  if (!opts.together && !payoutNeedsApproval(config, counted) && askedBefore === 0 && !windows?.over) {
    throw conflict(`This payout needs no approval: it is worth ${usd(counted as Prisma.Decimal)}, within what one admin may pay alone.`);
  }
  const existing = await tx.approval.findFirst({ where: { kind: 'PAYOUT', subjectId: target.id, status: { in: ['PENDING', 'APPROVED'] } } });
  if (existing) return existing;
  return createApproval(tx, audit, {
    kind: 'PAYOUT',
    subjectType: target.kind,
    subjectId: target.id,
    beneficiaryId,
    wallet,
    reason: opts.reason,
    // Not valued (no price): recorded at zero, shown as not valued; it still needs approval.
    amountUsd: worth ?? new Prisma.Decimal(0),
  });
}

/** Inside a change of a refund's wallet: its open approvals no longer hold (they were for the former wallet). */
export async function voidPayoutApprovals(tx: Tx, refundId: string): Promise<number> {
  const voided = await tx.approval.updateMany({ where: { kind: 'PAYOUT', subjectId: refundId, status: { in: ['PENDING', 'APPROVED'] } }, data: { status: 'REJECTED', decidedAt: new Date() } });
  return voided.count;
}

/**
 * The approval state of a page of payouts for the admin lists: whether each needs one
 * (its worth, or `over`: a cashout the viewing admin would take past a 24-hour window),
 * and its open (pending or approved) approval, else the latest rejected one. One query
 * by the subject index for the page.
 */
export async function payoutApprovalStates(
  db: Db,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  items: { id: string; worth: PayoutWorth; over?: boolean }[],
): Promise<Map<string, PayoutApprovalJson>> {
  const rows = items.length
    ? await db.approval.findMany({
        where: { kind: 'PAYOUT', subjectId: { in: items.map((i) => i.id) } },
        select: { id: true, subjectId: true, status: true, requestedById: true, createdAt: true },
        orderBy: { createdAt: 'desc' },
      })
    : [];
  const states = new Map<string, PayoutApprovalJson>();
  for (const item of items) {
    const mine = rows.filter((r) => r.subjectId === item.id);
    const current = mine.find((r) => r.status !== 'REJECTED') ?? mine[0];
    states.set(item.id, {
      needed: payoutNeedsApproval(config, item.worth) || item.over === true || mine.length > 0,
      current: current ? { _id: current.id, status: current.status, requestedBy: current.requestedById } : null,
    });
  }
  return states;
}

/**
 * Inside the transaction that creates an admin's refunds (one per transfer), so none is
 * ever payable before this ran: when together (and, for a wallet the admin named, with
 * the other refunds they directed to wallets of their choosing in the last 24 hours)
 * they are worth more than the threshold, or cannot be valued, each waits for a second
 * admin before it is paid. `price`: today's ETH price read before the transaction (null
 * when none). Returns the approvals asked for.
 */
export async function askRefundApprovals(
  tx: Tx,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  audit: AdminAudit,
  refundIds: string[],
  price: string | null,
  now = new Date(),
): Promise<ApprovalRow[]> {
  if (refundIds.length === 0) return [];
  const refunds = await tx.refund.findMany({ where: { id: { in: refundIds } }, select: { id: true, amountUsd: true, asset: true, amount: true, walletSource: true } });
  const worths = refunds.map((r) => refundWorth(r, price));
  let total = worths.reduce<Prisma.Decimal | null>((sum, w) => (sum === null || w === null ? null : sum.plus(w)), new Prisma.Decimal(0));
  if (total !== null && refunds.some((r) => r.walletSource === 'admin')) {
    const since = new Date(now.getTime() - APPROVAL_WINDOW_MS);
    const others = await tx.refund.findMany({
      where: { createdAt: { gte: since }, requestedById: audit.actor.id, walletSource: 'admin', id: { notIn: refundIds } },
      select: { amountUsd: true, asset: true, amount: true },
    });
    for (const o of others) {
      const w = refundWorth(o, price);
      total = total === null || w === null ? null : total.plus(w);
    }
  }
  if (!payoutNeedsApproval(config, total)) return [];
  const valued = async () => price ?? Promise.reject(new Error('no ETH price'));
  const asked: ApprovalRow[] = [];
  for (const r of refunds) asked.push(await openPayoutApproval(tx, config, audit, { kind: 'refund', id: r.id }, valued, { together: true }));
  return asked;
}
