import { authorizationMessage, type OrderAuthorizationJson } from '../contract/authorization.ts';
import { Prisma, type Db } from '../infra/db.ts';

/**
 * What the shop shows of its relayed payments: the buyer's latest on an order page
 * (PaymentAuthorization(orderId, createdAt), one row), and what their gas cost the shop,
 * a cost of sale, for the metrics and the admin overview (PaymentAuthorization(createdAt),
 * the range's rows only).
 */
export async function latestAuthorization(db: Db, orderId: string): Promise<OrderAuthorizationJson | null> {
  const row = await db.paymentAuthorization.findFirst({
    where: { orderId },
    orderBy: { createdAt: 'desc' },
    select: { id: true, asset: true, status: true, txHash: true, createdAt: true },
  });
  if (!row) return null;
  return { _id: row.id, asset: row.asset, status: row.status, txHash: row.txHash, message: authorizationMessage(row.status), createdAt: row.createdAt.toISOString() };
}

/** The gas of the relay's mined transactions sent in [start, end): in wei, in dollars at the ETH price when each was mined, and how many. */
export async function relayGasSince(db: Db, start: Date, end = new Date()): Promise<{ wei: bigint; usd: string; relayed: number }> {
  const row = await db.paymentAuthorization.aggregate({
    where: { createdAt: { gte: start, lt: end }, feeWei: { not: null } },
    _sum: { feeWei: true, feeUsd: true },
    _count: { _all: true },
  });
  return { wei: BigInt((row._sum.feeWei ?? new Prisma.Decimal(0)).toFixed(0)), usd: (row._sum.feeUsd ?? new Prisma.Decimal(0)).toFixed(2), relayed: row._count._all };
}

/** Authorizations the relay has not finished (RECEIVED, SENT): PaymentAuthorization(status, createdAt). */
export async function relaysOnTheirWay(db: Db): Promise<number> {
  return db.paymentAuthorization.count({ where: { status: { in: ['RECEIVED', 'SENT'] } } });
}
