import type { Db } from '../infra/db.ts';
import type { PayoutTarget } from '../infra/queues.ts';

const SWEEP = 500;

/**
 * Payments still pending (for the sweeper), paid orders whose receipt never went out,
 * cashouts never notified, verified payouts whose buyer was never told, and payout
 * checks still waiting (the sweeper queues one whose job was lost or failed again).
 *
 * It runs every minute for the life of the shop, so each query reads only the work still
 * open, through an index on it (the status leads an index, or a partial index of the
 * migrations' x_ ones holds just those rows), oldest first. Written as SQL: the statuses
 * must be literals for a partial index to serve the query.
 */
export async function sweepPayments(
  db: Db,
  now = new Date(),
  staleMs = 30_000,
): Promise<{ pending: { id: string; txHash: string; depositAddress: string | null; logIndex: number | null }[]; receipts: string[]; cashouts: string[]; payoutNotices: PayoutTarget[]; checking: string[]; relaying: string[] }> {
  const staleBefore = new Date(now.getTime() - staleMs);
  const minuteAgo = new Date(now.getTime() - 60_000);
  // Payment(status, createdAt, id): the pending ones.
  const pending = await db.$queryRaw<{ id: string; txHash: string; depositAddress: string | null; logIndex: number | null }[]>`
    SELECT "id", "txHash", "depositAddress", "logIndex" FROM "Payment"
    WHERE "status" = 'PENDING' AND "updatedAt" < ${staleBefore}
    ORDER BY "updatedAt" LIMIT ${SWEEP}`;
  // x_order_receipt_unsent.
  const receipts = await db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Order"
    WHERE "status" = 'PAID' AND "receiptSentAt" IS NULL AND "paidAt" < ${minuteAgo}
    ORDER BY "paidAt" LIMIT ${SWEEP}`;
  // CashoutRequest(status, createdAt, id): REQUESTED is a cashout whose notice has not gone out.
  const cashouts = await db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "CashoutRequest"
    WHERE "status" = 'REQUESTED' AND "createdAt" < ${minuteAgo}
    ORDER BY "createdAt" LIMIT ${SWEEP}`;
  const [paidCashouts, paidRefunds, checking, relaying] = await Promise.all([
    // x_cashout_paid_unnoticed, x_refund_paid_unnoticed.
    db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "CashoutRequest"
      WHERE "status" = 'PAID' AND "paidNoticeSentAt" IS NULL AND "paidAt" < ${minuteAgo}
      ORDER BY "paidAt" LIMIT ${SWEEP}`,
    db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Refund"
      WHERE "status" = 'PAID' AND "paidNoticeSentAt" IS NULL AND "userId" IS NOT NULL AND "paidAt" < ${minuteAgo}
      ORDER BY "paidAt" LIMIT ${SWEEP}`,
    // PayoutCheck(status), or the partial indexes of the checks still CHECKING.
    db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "PayoutCheck" WHERE "status" = 'CHECKING' ORDER BY "createdAt" LIMIT ${SWEEP}`,
    // PaymentAuthorization(status, createdAt): signed payments the relay has not finished.
    db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "PaymentAuthorization" WHERE "status" IN ('RECEIVED', 'SENT') AND "createdAt" < ${staleBefore} ORDER BY "createdAt" LIMIT ${SWEEP}`,
  ]);
  return {
    pending,
    receipts: receipts.map((o) => o.id),
    cashouts: cashouts.map((c) => c.id),
    payoutNotices: [...paidCashouts.map((c) => ({ kind: 'cashout' as const, id: c.id })), ...paidRefunds.map((r) => ({ kind: 'refund' as const, id: r.id }))],
    checking: checking.map((c) => c.id),
    relaying: relaying.map((r) => r.id),
  };
}
