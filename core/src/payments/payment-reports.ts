import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { conflict, notFound } from '../infra/errors.ts';
import type { AssetCode } from '../contract/json-parts.ts';

/**
 * The buyer reports a transaction hash. It never pays the order: it records the hash
 * for the worker, which attributes the transfer by its tag, and the report (which order
 * it was reported for, by whom: PaymentReport), so a transaction still in the mempool
 * holds that order whoever reported it first. A hash that already pays another order is
 * a conflict; an order takes only a few new hashes still waiting to be found or
 * confirmed. Returns the payment and its status (the caller queues a PENDING one).
 */
export async function recordPaymentReport(
  db: Db,
  config: AppConfig,
  user: { id: string },
  orderId: string,
  txHash: string,
  /** What the wallet sent: a token's transfer can only pay the order by its deposit address. */
  asset: AssetCode = 'ETH',
): Promise<{ paymentId: string | null; status: string }> {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { userId: true, status: true, depositAddress: true } });
  if (!order || order.userId !== user.id || order.status === 'DELETED') throw notFound('Order not found');
  const check = (p: { id: string; orderId: string | null; status: string }) => {
    if (p.orderId && p.orderId !== orderId) throw conflict('This transaction was already used for another order');
    return p;
  };
  const report = async (p: { id: string; status: string }) => {
    await db.paymentReport.createMany({ data: [{ paymentId: p.id, orderId, userId: user.id }], skipDuplicates: true });
    return { paymentId: p.id, status: p.status };
  };
  // The hash of a deposit to this order's own address: that deposit (the indexer finds it
  // by its recipient), not a second payment to the receiving address that would fail. A
  // transaction whose Transfer logs paid it twice is reported on its first.
  const deposit = order.depositAddress
    ? await db.payment.findFirst({ where: { depositAddress: order.depositAddress, txHash }, orderBy: { logIndex: { sort: 'asc', nulls: 'first' } } })
    : null;
  if (deposit) return report(check(deposit));
  // A token transfer not indexed yet: no payment to the receiving address is made up for it
  // (one would be rejected, "not sent to the receiving address"). The indexer finds it by
  // its recipient, the order's deposit address, within a block of its being mined.
  if (asset !== 'ETH') return { paymentId: null, status: 'PENDING' };
  const existing = await db.payment.findFirst({ where: { depositAddress: null, txHash, logIndex: null } });
  if (existing) return report(check(existing));
  try {
    const created = await db.$transaction(async (tx) => {
      // New hashes of one order are counted under its row lock, so the cap holds under
      // concurrency; the same hash reported at once by several requests is one report.
      await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
      const raced = await tx.payment.findFirst({ where: { depositAddress: null, txHash, logIndex: null } });
      if (raced) return raced;
      const waiting = await tx.paymentReport.count({ where: { orderId, payment: { source: 'REPORTED', status: 'PENDING' } } });
      if (waiting >= config.maxPendingReportsPerOrder) {
        throw conflict(
          `This order already has ${waiting} reported payments waiting to be found or confirmed on chain. Wait until they are confirmed or rejected before reporting another.`,
        );
      }
      return tx.payment.create({ data: { txHash, source: 'REPORTED', status: 'PENDING', reports: { create: { orderId, userId: user.id } } } });
    });
    return report(check(created));
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
      // A concurrent report of the same hash won the insert.
      return report(check(await db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash, logIndex: null } })));
    }
    throw err;
  }
}

