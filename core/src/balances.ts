import { randomUUID } from 'node:crypto';
import { Prisma, type Db } from './db.ts';
import { postEntries } from './ledger.ts';

/**
 * Balance operations a user starts (exchange, cashout) and the admin's answer to a
 * cashout. Each locks the user's row, decides from the locked balance, and writes the
 * ledger entries, the balance and any request in one transaction.
 */
export class BalanceRuleError extends Error {
  override name = 'BalanceRuleError';
}

async function lockUser(tx: Prisma.TransactionClient, userId: string) {
  const rows = await tx.$queryRaw<{ activeBalance: Prisma.Decimal; passiveBalance: Prisma.Decimal }[]>`
    SELECT "activeBalance", "passiveBalance" FROM "User" WHERE "id" = ${userId}::uuid AND "deletedAt" IS NULL FOR UPDATE`;
  const row = rows[0];
  if (!row) throw new BalanceRuleError('User not found');
  return { active: new Prisma.Decimal(row.activeBalance), passive: new Prisma.Decimal(row.passiveBalance) };
}

/** Moves the whole active balance to the passive balance. */
export async function exchangeBalance(db: Db, userId: string): Promise<{ moved: Prisma.Decimal }> {
  return db.$transaction(async (tx) => {
    const { active } = await lockUser(tx, userId);
    if (active.lte(0)) throw new BalanceRuleError('Your active balance is empty: nothing to exchange');
    const key = `exchange:${randomUUID()}`;
    await postEntries(tx, [
      { userId, account: 'ACTIVE', amount: active.negated(), kind: 'EXCHANGE', reference: key, idempotencyKey: `${key}:out` },
      { userId, account: 'PASSIVE', amount: active, kind: 'EXCHANGE', reference: key, idempotencyKey: `${key}:in` },
    ]);
    return { moved: active };
  });
}

/**
 * Cashout: only when the active balance is strictly above the minimum, the whole active
 * balance leaves in one go and a CashoutRequest records it. Concurrent requests
 * serialize on the row lock; the second sees a zero balance.
 */
export async function requestCashout(
  db: Db,
  input: { userId: string; wallet: string; minimum: string; ethUsd?: string },
): Promise<{ cashoutId: string; amount: Prisma.Decimal }> {
  return db.$transaction(async (tx) => {
    const { active } = await lockUser(tx, input.userId);
    if (!active.gt(new Prisma.Decimal(input.minimum))) throw new BalanceRuleError('Not Enough Money');
    const request = await tx.cashoutRequest.create({
      data: {
        userId: input.userId,
        wallet: input.wallet,
        amountUsd: active,
        ethUsd: input.ethUsd ? new Prisma.Decimal(input.ethUsd) : null,
      },
    });
    await postEntries(tx, [
      { userId: input.userId, account: 'ACTIVE', amount: active.negated(), kind: 'CASHOUT', reference: `cashout:${request.id}`, idempotencyKey: `cashout:${request.id}` },
    ]);
    return { cashoutId: request.id, amount: active };
  });
}

/** Admin: the payout was sent. */
export async function markCashoutPaid(db: Db, cashoutId: string, payoutTxHash: string): Promise<boolean> {
  const changed = await db.cashoutRequest.updateMany({
    where: { id: cashoutId, status: { in: ['REQUESTED', 'NOTIFIED'] } },
    data: { status: 'PAID', payoutTxHash },
  });
  return changed.count === 1;
}

/** Admin: refused; the amount goes back to the user's active balance through the ledger. */
export async function rejectCashout(db: Db, cashoutId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const changed = await tx.cashoutRequest.updateMany({
      where: { id: cashoutId, status: { in: ['REQUESTED', 'NOTIFIED'] } },
      data: { status: 'REJECTED' },
    });
    if (changed.count !== 1) return false;
    const request = await tx.cashoutRequest.findUniqueOrThrow({ where: { id: cashoutId } });
    await postEntries(tx, [
      { userId: request.userId, account: 'ACTIVE', amount: request.amountUsd, kind: 'CASHOUT', reference: `cashout:${cashoutId}:rejected`, idempotencyKey: `cashout-reject:${cashoutId}` },
    ]);
    return true;
  });
}
