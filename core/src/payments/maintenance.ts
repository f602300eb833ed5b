import type { Db } from '../db.ts';
import type { PayoutTarget } from '../queues.ts';

/**
 * Payments still pending (for the sweeper), paid orders whose receipt never went out,
 * cashouts never notified, verified payouts whose buyer was never told, and payout
 * checks still waiting (the sweeper queues one whose job was lost or failed again).
 */
export async function sweepPayments(
  db: Db,
  now = new Date(),
  staleMs = 30_000,
): Promise<{ pending: { id: string; txHash: string }[]; receipts: string[]; cashouts: string[]; payoutNotices: PayoutTarget[]; checking: string[] }> {
  const pending = await db.payment.findMany({
    where: { status: 'PENDING', updatedAt: { lt: new Date(now.getTime() - staleMs) } },
    select: { id: true, txHash: true },
    take: 500,
  });
  const receipts = await db.order.findMany({
    where: { status: 'PAID', receiptSentAt: null, paidAt: { lt: new Date(now.getTime() - 60_000) } },
    select: { id: true },
    take: 500,
  });
  const cashouts = await db.cashoutRequest.findMany({
    where: { status: 'REQUESTED', createdAt: { lt: new Date(now.getTime() - 60_000) } },
    select: { id: true },
    take: 500,
  });
  const minuteAgo = new Date(now.getTime() - 60_000);
  const [paidCashouts, paidRefunds, checking] = await Promise.all([
    db.cashoutRequest.findMany({ where: { status: 'PAID', paidNoticeSentAt: null, paidAt: { lt: minuteAgo } }, select: { id: true }, take: 500 }),
    db.refund.findMany({ where: { status: 'PAID', paidNoticeSentAt: null, userId: { not: null }, paidAt: { lt: minuteAgo } }, select: { id: true }, take: 500 }),
    db.payoutCheck.findMany({ where: { status: 'CHECKING' }, select: { id: true }, take: 500 }),
  ]);
  return {
    pending,
    receipts: receipts.map((o) => o.id),
    cashouts: cashouts.map((c) => c.id),
    payoutNotices: [...paidCashouts.map((c) => ({ kind: 'cashout' as const, id: c.id })), ...paidRefunds.map((r) => ({ kind: 'refund' as const, id: r.id }))],
    checking: checking.map((c) => c.id),
  };
}
