import { Prisma, type Db } from '../infra/db.ts';
import type { Effect } from '../infra/effects.ts';
import type { Tx } from '../books/ledger.ts';

/**
 * Security e-mails: the account's own address is told when a second factor is added or
 * removed, when the password or the e-mail address changes (the old address: the one the
 * owner still reads), and when a cashout is asked for. The notice is a row written in the
 * change's own transaction (an outbox: a change that rolls back tells nobody, a committed
 * one is never lost); the change returns the effect that queues its e-mail, the worker
 * sends it and marks it sent, and the sweeper hands on one whose job was lost.
 * The same outbox carries the account's other letters: the welcome of a new account and
 * the news of a referral reward credited (written with the ledger entry that credits it).
 */
export type SecurityChange =
  | { kind: 'FACTOR_ADDED' | 'FACTOR_REMOVED'; userId: string; factor: 'totp' | 'passkey'; name?: string }
  | { kind: 'PASSWORD_CHANGED'; userId: string }
  | { kind: 'EMAIL_CHANGED'; userId: string; from: string; to: string }
  | { kind: 'CASHOUT_REQUESTED'; userId: string; cashoutId: string }
  | { kind: 'WELCOME'; userId: string }
  /** `amount`: the USD credited, as a decimal string; `orderId`: the referred buyer's paid order. */
  | { kind: 'REFERRAL_REWARD'; userId: string; amount: string; orderId: string };

/** Unsent notices older than this are no longer retried by the sweeper (an address that never takes mail). */
export const NOTICE_RETRY_DAYS = 3;
const DAY = 24 * 3600_000;

/** Records the notice of `change` in the caller's transaction; returns the effect that sends it. */
export async function noteSecurityChange(tx: Tx, change: SecurityChange): Promise<Effect> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: change.userId }, select: { email: true } });
  const detail: Prisma.InputJsonValue | undefined =
    change.kind === 'FACTOR_ADDED' || change.kind === 'FACTOR_REMOVED'
      ? { factor: change.factor, ...(change.name ? { name: change.name } : {}) }
      : change.kind === 'EMAIL_CHANGED'
        ? { to: change.to }
        : change.kind === 'REFERRAL_REWARD'
          ? { amount: change.amount, orderId: change.orderId }
          : undefined;
  const row = await tx.securityNotice.create({
    data: {
      userId: change.userId,
      kind: change.kind,
      email: change.kind === 'EMAIL_CHANGED' ? change.from : user.email,
      ...(detail ? { detail } : {}),
      ...(change.kind === 'CASHOUT_REQUESTED' ? { cashoutId: change.cashoutId } : {}),
    },
    select: { id: true },
  });
  return { kind: 'security-notice', noticeId: row.id };
}

/** Marks a notice sent (after its e-mail went out): a rerun of its job sends nothing. */
export async function markNoticeSent(db: Db, noticeId: string, now = new Date()): Promise<void> {
  await db.securityNotice.updateMany({ where: { id: noticeId, sentAt: null }, data: { sentAt: now } });
}

/** Notices not sent a minute after their change (their job lost), of the last NOTICE_RETRY_DAYS: SecurityNotice(sentAt, createdAt). */
export async function unsentNotices(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "SecurityNotice"
    WHERE "sentAt" IS NULL AND "createdAt" < ${new Date(now.getTime() - 60_000)} AND "createdAt" > ${new Date(now.getTime() - NOTICE_RETRY_DAYS * DAY)}
    ORDER BY "createdAt" LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** Forgets notices older than `retentionDays` (sent or given up), `batch` rows a statement (the retention job). */
export async function pruneSecurityNotices(db: Db, retentionDays: number, batch: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY);
  let pruned = 0;
  // Both through SecurityNotice(sentAt, createdAt): the sent ones, then the ones never sent.
  for (const where of [Prisma.sql`"sentAt" < ${cutoff}`, Prisma.sql`"sentAt" IS NULL AND "createdAt" < ${cutoff}`]) {
    for (;;) {
      const n = await db.$executeRaw`
        DELETE FROM "SecurityNotice" WHERE "id" = ANY(ARRAY(SELECT "id" FROM "SecurityNotice" WHERE ${where} ORDER BY "sentAt", "createdAt" LIMIT ${batch}))`;
      pruned += n;
      if (n < batch) break;
    }
  }
  return pruned;
}
