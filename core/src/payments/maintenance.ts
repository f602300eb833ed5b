import type { AppConfig } from '../config.ts';
import type { Db } from '../db.ts';
import { releaseStock } from './stock.ts';

const HOUR = 3600_000;

/** Payments still pending (for the sweeper), paid orders whose receipt never went out, and cashouts never notified. */
export async function sweepPayments(db: Db, now = new Date(), staleMs = 30_000): Promise<{ pending: { id: string; txHash: string }[]; receipts: string[]; cashouts: string[] }> {
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
  return { pending, receipts: receipts.map((o) => o.id), cashouts: cashouts.map((c) => c.id) };
}

/**
 * Unpaid orders past their payment window with no transfer being verified become
 * EXPIRED and release their stock (once: the reservation flag is cleared in the same
 * conditional update). Tags of settled orders are freed once no late payment can
 * still arrive for them.
 */
export async function expireOrders(db: Db, config: AppConfig, now = new Date()): Promise<{ expired: number; tagsReleased: number }> {
  const candidates = await db.order.findMany({
    where: {
      status: { in: ['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING'] },
      paymentDeadline: { lt: now },
      payments: { none: { status: 'PENDING' } },
    },
    select: { id: true },
    take: 500,
  });
  let expired = 0;
  for (const { id } of candidates) {
    const done = await db.$transaction(async (tx) => {
      const changed = await tx.order.updateMany({
        where: { id, status: { in: ['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING'] }, payments: { none: { status: 'PENDING' } } },
        data: { status: 'EXPIRED' },
      });
      if (changed.count !== 1) return false;
      await releaseStock(tx, id);
      return true;
    });
    if (done) expired++;
  }
  const monitorCutoff = new Date(now.getTime() - config.latePaymentHours * HOUR);
  const released = await db.order.updateMany({
    where: {
      paymentTag: { not: null },
      status: { in: ['PAID', 'EXPIRED'] },
      quotes: { every: { expiresAt: { lt: monitorCutoff } } },
      OR: [{ paidAt: { lt: monitorCutoff } }, { paidAt: null }],
      payments: { none: { status: 'PENDING' } },
    },
    data: { paymentTag: null },
  });
  return { expired, tagsReleased: released.count };
}
