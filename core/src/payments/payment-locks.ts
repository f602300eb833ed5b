import { Prisma, type Db, type Order, type Payment, type PaymentQuote } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import { isPayable } from './order-states.ts';
import type { MinedTransfer } from './transfer.ts';

/**
 * The row locks every payment state change takes, in one order: the payment first, then
 * its order(s) (several in id order), then package rows, then users; and a block's
 * inflow lock before the payments that explain it. Also what every change writes of a
 * transfer's block, and how an order's status follows the transfers it waits on.
 */

/** Locks a payment and reads it, in one statement (the row as it is once the lock is held). */
export async function lockPayment(tx: Tx, paymentId: string): Promise<Payment | null> {
  const rows = await tx.$queryRaw<Payment[]>`SELECT * FROM "Payment" WHERE "id" = ${paymentId}::uuid FOR UPDATE`;
  return rows[0] ?? null;
}

/** A payment as the ORM reads it, in a plain statement (a fraction of the ORM's work: the verifier reads one per check). */
export async function readPayment(db: Db, paymentId: string): Promise<Payment | null> {
  const rows = await db.$queryRaw<Payment[]>`SELECT * FROM "Payment" WHERE "id" = ${paymentId}::uuid`;
  return rows[0] ?? null;
}

type OrderKey = { id: string } | { tag: number } | { depositAddress: string };
export type LockedOrder = Order & { quotes: PaymentQuote[]; user: { referredById: string | null } };

/**
 * Locks the order `where` names and reads it with its quotes and its buyer's referrer;
 * with `also`, locks that order too, both in id order (the order every path that locks
 * two takes them in: two assignments crossing between the same two orders never
 * deadlock). Two statements: the locks with the order rows (each row as it is once its
 * lock is held, and the referrer, which never changes), then the quotes, read after the
 * locks are held, so a quote issued under the order's lock (quotes.ts) while this waited
 * for it is seen. Null when no order matches `where` (`also` is locked all the same).
 */
export async function lockOrder(tx: Tx, where: OrderKey, also?: string | null): Promise<LockedOrder | null> {
  const match =
    'id' in where
      ? Prisma.sql`o."id" = ${where.id}::uuid`
      : 'tag' in where
        ? Prisma.sql`o."paymentTag" = ${where.tag}`
        : Prisma.sql`o."depositAddress" = ${where.depositAddress.toLowerCase()}`;
  const rows = await tx.$queryRaw<(Order & { referredById: string | null })[]>`
    SELECT o.*, (SELECT u."referredById" FROM "User" u WHERE u."id" = o."userId") AS "referredById"
    FROM "Order" o
    WHERE ${match}${also ? Prisma.sql` OR o."id" = ${also}::uuid` : Prisma.empty}
    ORDER BY o."id" FOR UPDATE OF o`;
  const found = rows.find((r) => ('id' in where ? r.id === where.id.toLowerCase() : 'tag' in where ? r.paymentTag === where.tag : r.depositAddress === where.depositAddress.toLowerCase()));
  if (!found) return null;
  const { referredById, ...order } = found;
  const quotes = await tx.$queryRaw<PaymentQuote[]>`SELECT * FROM "PaymentQuote" WHERE "orderId" = ${order.id}::uuid ORDER BY "createdAt"`;
  return { ...order, quotes, user: { referredById } };
}

/** Serializes what is done with a block's unexplained inflow (the indexer recording it, settlement explaining it). */
export async function lockInflow(tx: Tx, blockHash: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`inflow:${blockHash}`}))`;
}

/** What every state change records of the transfer as the chain shows it now. */
export const blockFields = (t: MinedTransfer) => ({
  fromAddress: t.from.toLowerCase(),
  payerAddress: t.payer?.toLowerCase() ?? null,
  viaContract: t.internal,
  amount: new Prisma.Decimal(t.valueWei.toString()),
  blockNumber: t.blockNumber,
  blockHash: t.blockHash,
  blockTimestamp: t.blockTimestamp,
  confirmations: t.confirmations,
});

/** Each of blockFields' columns with its SQL type (a field without one does not compile). */
const BLOCK_FIELD_TYPES: Record<keyof ReturnType<typeof blockFields>, string> = {
  fromAddress: 'text',
  payerAddress: 'text',
  viaContract: 'boolean',
  amount: 'numeric',
  blockNumber: 'bigint',
  blockHash: 'text',
  blockTimestamp: 'timestamptz',
  confirmations: 'int',
};

/** blockFields as the SET list of a raw UPDATE of the payment. */
export function blockAssignments(t: MinedTransfer): Prisma.Sql {
  const fields = blockFields(t);
  return Prisma.join(
    (Object.keys(BLOCK_FIELD_TYPES) as (keyof typeof fields)[]).map((column) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${fields[column]}::${Prisma.raw(BLOCK_FIELD_TYPES[column])}`),
  );
}

/**
 * After one of its transfers changed (rejected, refunded, resolved elsewhere), an unpaid
 * order's status follows what is left: LATE while a late transfer waits for an admin,
 * VERIFYING while one is being verified, otherwise UNDERPAID or PENDING_PAYMENT (the
 * expiry job expires it when its window is over). Paid, expired and deleted orders keep
 * theirs. The caller holds the payment's lock; the order's is taken here.
 */
export async function refreshOrderStatus(tx: Tx, orderId: string): Promise<void> {
  const order = await lockOrder(tx, { id: orderId });
  if (!order || (!isPayable(order.status) && order.status !== 'LATE')) return;
  const [late, pending] = await Promise.all([
    tx.payment.count({ where: { orderId, status: 'LATE' } }),
    tx.payment.count({ where: { orderId, status: 'PENDING' } }),
  ]);
  const status = late > 0 ? 'LATE' : pending > 0 ? 'VERIFYING' : order.paidUsd.gt(0) ? 'UNDERPAID' : 'PENDING_PAYMENT';
  if (status !== order.status) await tx.order.update({ where: { id: orderId }, data: { status } });
}
