import { recordAudit } from '../events/audit.ts';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { conflict, notFound } from '../infra/errors.ts';
import { postEntries, type Tx } from '../books/ledger.ts';
import { APPROVAL_WINDOW_MS, createApproval, type AdminAudit, type ApprovalRow } from './requests.ts';
import { threshold } from './worth.ts';

/**
 * Changes an admin's edit holds for a second admin instead of making: a large balance
 * increase and making someone an admin; and applying them once approved.
 */

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
  audit: AdminAudit,
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

/** An approved balance increase: the held change posted through the ledger, on the balances as they are now. */
export async function applyIncrease(tx: Tx, a: ApprovalRow): Promise<void> {
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
 * An admin's edit that makes another user an admin: held for a second admin (a phished
 * admin must not be able to make an accomplice account an admin that approves their
 * requests). Returns the approval.
 */
export function holdAdminGrant(tx: Tx, audit: AdminAudit, userId: string): Promise<ApprovalRow> {
  return createApproval(tx, audit, { kind: 'ADMIN_GRANT', subjectType: 'user', subjectId: userId, beneficiaryId: userId, amountUsd: new Prisma.Decimal(0) });
}

export async function applyAdminGrant(tx: Tx, a: ApprovalRow): Promise<void> {
  const granted = await tx.user.updateMany({ where: { id: a.subjectId, deletedAt: null }, data: { isAdmin: true } });
  if (granted.count !== 1) throw conflict('This user was deleted: reject the request instead');
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
