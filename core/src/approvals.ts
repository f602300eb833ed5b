import { recordAudit, type AuditContext } from './audit.ts';
import type { AppConfig } from './config.ts';
import { Prisma, type Db } from './db.ts';
import { conflict, forbidden, notFound, UserError } from './errors.ts';
import { InsufficientBalanceError, postEntries, type Tx } from './ledger.ts';
import type { PayoutApprovalJson } from './contract/approvals.ts';
import type { PayoutTarget } from './queues.ts';

/**
 * Two admins for large money moves. A balance increase an admin makes of more than
 * APPROVAL_THRESHOLD_USD (counting the direct increases they made in the last 24 hours,
 * so the amount cannot be split into small edits) is held, not applied, until a second
 * admin approves it; a cashout or refund worth more than it cannot be marked paid until
 * a second admin approved paying it (an admin asks before sending the ETH; a large
 * refund asks when it is created). Nobody decides their own request, nor one whose money
 * goes to them. Every request and decision is in the audit log, in its transaction.
 */

/** Direct balance increases of one admin counted together against the threshold. */
export const APPROVAL_WINDOW_MS = 24 * 3600_000;

export const APPROVAL_NEEDED_DETAIL = { approvalRequired: true } as const;

const usd = (d: Prisma.Decimal) => `$${d.toFixed(2)}`;

function threshold(config: Pick<AppConfig, 'approvalThresholdUsd'>): Prisma.Decimal {
  return new Prisma.Decimal(config.approvalThresholdUsd);
}

/** A payout's worth in USD for this rule: null when it cannot be valued now (no price), which counts as large. */
export type PayoutWorth = Prisma.Decimal | null;

/** Whether a payout of this worth needs a second admin. */
export function payoutNeedsApproval(config: Pick<AppConfig, 'approvalThresholdUsd'>, worth: PayoutWorth): boolean {
  return worth === null || worth.gt(threshold(config));
}

/**
 * What a cashout or refund is worth: a cashout its USD amount; a refund the USD value
 * the shop received for it, or (a transfer no order priced) its ETH at today's price.
 * `counted` is what the threshold is held against: for a cashout, with the same user's
 * other cashouts of the 24 hours before it (a balance cashed out in small pieces is
 * counted together); for a refund, its worth.
 */
export async function payoutWorth(
  tx: Tx | Db,
  target: PayoutTarget,
  currentPrice?: () => Promise<string>,
): Promise<{ worth: PayoutWorth; counted: PayoutWorth; beneficiaryId: string | null; open: boolean; wallet: string; createdById: string | null }> {
  if (target.kind === 'cashout') {
    const c = await tx.cashoutRequest.findUnique({ where: { id: target.id }, select: { amountUsd: true, userId: true, status: true, wallet: true } });
    if (!c) throw notFound('Cashout request not found');
    const counted = (await cashoutsCounted(tx, [target.id])).get(target.id) ?? c.amountUsd;
    return { worth: c.amountUsd, counted, beneficiaryId: c.userId, open: c.status === 'REQUESTED' || c.status === 'NOTIFIED', wallet: c.wallet, createdById: null };
  }
  const r = await tx.refund.findUnique({ where: { id: target.id }, select: { amountUsd: true, amountWei: true, userId: true, status: true, wallet: true, requestedById: true } });
  if (!r) throw notFound('Refund not found');
  const price = r.amountUsd === null && currentPrice ? await currentPrice().catch(() => null) : null;
  const worth = refundWorth(r, price);
  return { worth, counted: worth, beneficiaryId: r.userId, open: r.status === 'REQUESTED', wallet: r.wallet, createdById: r.requestedById };
}

/**
 * Each cashout's amount with its user's other cashouts (not rejected) requested in the 24
 * hours before it: one query for a page (index CashoutRequest(userId)).
 */
export async function cashoutsCounted(tx: Tx | Db, ids: string[]): Promise<Map<string, Prisma.Decimal>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ id: string; counted: Prisma.Decimal }[]>`
    SELECT c."id", c."amountUsd" + COALESCE((
      SELECT SUM(o."amountUsd") FROM "CashoutRequest" o
      WHERE o."userId" = c."userId" AND o."id" <> c."id" AND o."status" <> 'REJECTED'
        AND o."createdAt" <= c."createdAt" AND o."createdAt" > c."createdAt" - interval '24 hours'
    ), 0) AS "counted"
    FROM "CashoutRequest" c WHERE c."id" = ANY(${ids}::uuid[])`;
  return new Map(rows.map((r) => [r.id, new Prisma.Decimal(r.counted)]));
}

const sameWallet = (a: string | null, b: string) => a === null || a.toLowerCase() === b.toLowerCase();

/** A refund's worth: the USD the shop received for it, else its ETH at `price` (rounded up), else null (cannot be valued). */
export function refundWorth(r: { amountUsd: Prisma.Decimal | null; amountWei: Prisma.Decimal }, price: string | null): PayoutWorth {
  if (r.amountUsd !== null) return r.amountUsd;
  return price ? r.amountWei.div('1e18').mul(price).toDecimalPlaces(2, Prisma.Decimal.ROUND_UP) : null;
}

/**
 * Inside the transaction that records a payout as sent (the payout row locked): a payout
 * worth more than the threshold needs an approved approval, else 409 `approvalRequired`.
 */
export async function requirePayoutApproval(
  tx: Tx,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  target: PayoutTarget,
  worth: PayoutWorth,
  wallet: string,
): Promise<void> {
  // Once asked for (a refund created with others that together are large), it is needed whatever the payout's own worth.
  const asked = await tx.approval.findMany({ where: { kind: 'PAYOUT', subjectId: target.id }, select: { status: true, wallet: true } });
  // Approved for the wallet it now pays (a refund redirected since needs a new approval).
  if (asked.some((a) => a.status === 'APPROVED' && sameWallet(a.wallet, wallet))) return;
  if (!payoutNeedsApproval(config, worth) && asked.length === 0) return;
  const counted = target.kind === 'cashout' ? "(with the same user's cashouts of the 24 hours before it) " : '';
  const what = worth === null ? 'cannot be valued now (no ETH price)' : `${counted}is worth ${usd(worth)}`;
  throw new UserError(
    409,
    `This payout ${what}, more than the ${usd(threshold(config))} one admin may pay alone: a second admin must approve it (Admin > Approvals) before it is sent.`,
    undefined,
    APPROVAL_NEEDED_DETAIL,
  );
}

type ApprovalRow = Prisma.ApprovalGetPayload<object>;

/**
 * An admin asks a second admin to approve paying a large cashout or refund (before
 * sending its ETH). Returns the open approval when one exists already.
 */
export async function askPayoutApproval(
  db: Db,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  audit: AuditContext & { actor: { id: string; email: string } },
  target: PayoutTarget,
  currentPrice?: () => Promise<string>,
): Promise<ApprovalRow> {
  try {
    return await db.$transaction((tx) => openPayoutApproval(tx, config, audit, target, currentPrice));
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
  audit: AuditContext & { actor: { id: string; email: string } },
  target: PayoutTarget,
  currentPrice?: () => Promise<string>,
  opts: { together?: boolean } = {},
): Promise<ApprovalRow> {
  const table = target.kind === 'cashout' ? Prisma.sql`"CashoutRequest"` : Prisma.sql`"Refund"`;
  await tx.$queryRaw`SELECT "id" FROM ${table} WHERE "id" = ${target.id}::uuid FOR UPDATE`;
  const { worth, counted, beneficiaryId, open: isOpen, wallet } = await payoutWorth(tx, target, currentPrice);
  if (!isOpen) throw conflict(target.kind === 'cashout' ? 'This cashout request is already settled' : 'This refund is already paid');
  const askedBefore = await tx.approval.count({ where: { kind: 'PAYOUT', subjectId: target.id } });
  if (!opts.together && !payoutNeedsApproval(config, counted) && askedBefore === 0) {
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
    // Not valued (no price): recorded at zero, shown as not valued; it still needs approval.
    amountUsd: worth ?? new Prisma.Decimal(0),
  });
}

async function createApproval(
  tx: Tx,
  audit: AuditContext & { actor: { id: string; email: string } },
  data: {
    kind: 'PAYOUT' | 'BALANCE_INCREASE' | 'ADMIN_GRANT';
    subjectType: string;
    subjectId: string;
    beneficiaryId: string | null;
    amountUsd: Prisma.Decimal;
    change?: { active: string; passive: string };
    wallet?: string;
  },
): Promise<ApprovalRow> {
  const row = await tx.approval.create({ data: { ...data, requestedById: audit.actor.id } });
  await recordAudit(tx, audit, {
    action: 'approval.requested',
    subject: { type: data.subjectType, id: data.subjectId },
    after: { approval: row.id, kind: data.kind, amountUsd: data.amountUsd.toFixed(2), ...(data.change ? { change: data.change } : {}), ...(data.wallet ? { wallet: data.wallet } : {}) },
  });
  return row;
}

/** The direct (unapproved) balance increases `actorId` made in the last APPROVAL_WINDOW_MS: ledger rows of that window only (index on createdAt). */
async function recentDirectIncreases(tx: Tx, actorId: string, now: Date): Promise<Prisma.Decimal> {
  const since = new Date(now.getTime() - APPROVAL_WINDOW_MS);
  const rows = await tx.$queryRaw<{ total: Prisma.Decimal | null }[]>`
    SELECT SUM("amount") AS "total" FROM "LedgerEntry"
    WHERE "createdAt" >= ${since} AND "kind" = 'ADMIN_ADJUSTMENT' AND "reference" = ${`admin:${actorId}`} AND "amount" > 0`;
  return new Prisma.Decimal(rows[0]?.total ?? 0);
}

/**
 * Called by an admin's balance edit (the user's row locked) with the change it would
 * make: when the increase, with the admin's other direct increases of the last 24 hours,
 * is more than the threshold, the change is held as an approval instead (returned) and
 * nothing is posted; otherwise null and the edit goes through as today.
 */
export async function holdLargeIncrease(
  tx: Tx,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  audit: AuditContext & { actor: { id: string; email: string } },
  input: { userId: string; change: { active: Prisma.Decimal; passive: Prisma.Decimal }; now?: Date },
): Promise<ApprovalRow | null> {
  const { active, passive } = input.change;
  const increase = Prisma.Decimal.max(active, 0).plus(Prisma.Decimal.max(passive, 0));
  if (increase.lte(0)) return null;
  // One admin's edits are counted one at a time: concurrent edits cannot each see the window empty.
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`approval-window:${audit.actor.id}`}))::text`;
  const counted = increase.plus(await recentDirectIncreases(tx, audit.actor.id, input.now ?? new Date()));
  if (counted.lte(threshold(config))) return null;
  return createApproval(tx, audit, {
    kind: 'BALANCE_INCREASE',
    subjectType: 'user',
    subjectId: input.userId,
    beneficiaryId: input.userId,
    amountUsd: increase,
    change: { active: active.toFixed(2), passive: passive.toFixed(2) },
  });
}

export const SELF_APPROVAL = 'You cannot approve your own request: another admin must.';
export const OWN_MONEY_APPROVAL = 'You cannot approve money that goes to you: another admin must.';

/**
 * A second admin approves or rejects a pending request. Approving a balance increase
 * applies it (the held change, on the balances as they are now) through the ledger in
 * the same transaction; approving a payout lets it be marked paid. The requester may
 * withdraw (reject) their own request, never approve it.
 */
export async function decideApproval(
  db: Db,
  audit: AuditContext & { actor: { id: string; email: string } },
  input: { id: string; approve: boolean },
): Promise<ApprovalRow> {
  const decider = audit.actor.id;
  try {
    return await db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Approval" WHERE "id" = ${input.id}::uuid FOR UPDATE`;
      if (locked.length === 0) throw notFound('Approval not found');
      const a = await tx.approval.findUniqueOrThrow({ where: { id: input.id } });
      if (a.status !== 'PENDING') throw conflict(`This request was ${a.status.toLowerCase()} already`);
      if (input.approve) {
        if (a.requestedById === decider) throw forbidden(SELF_APPROVAL);
        if (a.beneficiaryId === decider) throw forbidden(OWN_MONEY_APPROVAL);
        if (a.kind === 'BALANCE_INCREASE') await applyIncrease(tx, a);
        else if (a.kind === 'ADMIN_GRANT') await applyAdminGrant(tx, a);
        else {
          const payout = await payoutWorth(tx, { kind: a.subjectType as PayoutTarget['kind'], id: a.subjectId });
          if (!payout.open) throw conflict('This payout is settled already: reject the request instead');
          // The admin who created a refund does not approve it either, whoever asked.
          if (payout.createdById === decider) throw forbidden(SELF_APPROVAL);
          if (!sameWallet(a.wallet, payout.wallet)) throw conflict('Its wallet changed since this was asked: reject it and ask again.');
        }
      }
      const decided = await tx.approval.update({
        where: { id: a.id },
        data: { status: input.approve ? 'APPROVED' : 'REJECTED', decidedById: decider, decidedAt: new Date() },
      });
      await recordAudit(tx, audit, {
        action: input.approve ? 'approval.approved' : 'approval.rejected',
        subject: { type: a.subjectType, id: a.subjectId },
        before: { approval: a.id, kind: a.kind, amountUsd: a.amountUsd.toFixed(2), requestedBy: a.requestedById },
        after: { status: decided.status },
      });
      return decided;
    });
  } catch (err) {
    if (err instanceof InsufficientBalanceError) {
      throw conflict('The balance is now lower than this change takes away: reject it and make the edit again.');
    }
    throw err;
  }
}

async function applyAdminGrant(tx: Tx, a: ApprovalRow): Promise<void> {
  const granted = await tx.user.updateMany({ where: { id: a.subjectId, deletedAt: null }, data: { isAdmin: true } });
  if (granted.count !== 1) throw conflict('This user was deleted: reject the request instead');
}

/**
 * An admin's edit that makes another user an admin: held for a second admin (a phished
 * admin must not be able to make an accomplice account an admin that approves their
 * requests). Returns the approval.
 */
export function holdAdminGrant(tx: Tx, audit: AuditContext & { actor: { id: string; email: string } }, userId: string): Promise<ApprovalRow> {
  return createApproval(tx, audit, { kind: 'ADMIN_GRANT', subjectType: 'user', subjectId: userId, beneficiaryId: userId, amountUsd: new Prisma.Decimal(0) });
}

/** Inside a change of a refund's wallet: its open approvals no longer hold (they were for the former wallet). */
export async function voidPayoutApprovals(tx: Tx, refundId: string): Promise<number> {
  const voided = await tx.approval.updateMany({ where: { kind: 'PAYOUT', subjectId: refundId, status: { in: ['PENDING', 'APPROVED'] } }, data: { status: 'REJECTED', decidedAt: new Date() } });
  return voided.count;
}

async function applyIncrease(tx: Tx, a: ApprovalRow): Promise<void> {
  const user = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "User" WHERE "id" = ${a.subjectId}::uuid AND "deletedAt" IS NULL FOR UPDATE`;
  if (user.length === 0) throw conflict('This user was deleted: reject the request instead');
  const change = a.change as { active?: string; passive?: string } | null;
  const entries = (['ACTIVE', 'PASSIVE'] as const)
    .map((account) => ({ account, amount: new Prisma.Decimal((account === 'ACTIVE' ? change?.active : change?.passive) ?? 0) }))
    .filter((e) => !e.amount.isZero())
    .map((e) => ({
      userId: a.subjectId,
      account: e.account,
      amount: e.amount,
      kind: 'ADMIN_ADJUSTMENT' as const,
      reference: `approval:${a.id}`,
      idempotencyKey: `approval:${a.id}:${e.account}`,
    }));
  await postEntries(tx, entries);
}

/**
 * The approval state of a page of payouts for the admin lists: whether each needs one,
 * and its open (pending or approved) approval, else the latest rejected one. One query
 * by the subject index for the page.
 */
export async function payoutApprovalStates(
  db: Db,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  items: { id: string; worth: PayoutWorth }[],
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
      needed: payoutNeedsApproval(config, item.worth) || mine.length > 0,
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
  audit: AuditContext & { actor: { id: string; email: string } },
  refundIds: string[],
  price: string | null,
  now = new Date(),
): Promise<ApprovalRow[]> {
  if (refundIds.length === 0) return [];
  const refunds = await tx.refund.findMany({ where: { id: { in: refundIds } }, select: { id: true, amountUsd: true, amountWei: true, walletSource: true } });
  const worths = refunds.map((r) => refundWorth(r, price));
  let total = worths.reduce<Prisma.Decimal | null>((sum, w) => (sum === null || w === null ? null : sum.plus(w)), new Prisma.Decimal(0));
  if (total !== null && refunds.some((r) => r.walletSource === 'admin')) {
    const since = new Date(now.getTime() - APPROVAL_WINDOW_MS);
    const others = await tx.refund.findMany({
      where: { createdAt: { gte: since }, requestedById: audit.actor.id, walletSource: 'admin', id: { notIn: refundIds } },
      select: { amountUsd: true, amountWei: true },
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

/**
 * The operator makes a user an admin from a shell (`npm run admin:grant -- <e-mail>`): the
 * way to a shop's second admin, since an admin's own grant waits for a second admin.
 * Audited with no actor (the shell).
 */
export async function grantAdminFromShell(db: Db, email: string): Promise<{ id: string; already: boolean }> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findFirst({ where: { email: email.trim().toLowerCase(), deletedAt: null }, select: { id: true, isAdmin: true } });
    if (!user) throw notFound(`No user has the e-mail ${email}: they register first.`);
    if (user.isAdmin) return { id: user.id, already: true };
    await tx.user.update({ where: { id: user.id }, data: { isAdmin: true } });
    await recordAudit(tx, { actor: null, ip: null, userAgent: 'npm run admin:grant' }, { action: 'user.update', subject: { type: 'user', id: user.id }, before: { isAdmin: false }, after: { isAdmin: true } });
    return { id: user.id, already: false };
  });
}
