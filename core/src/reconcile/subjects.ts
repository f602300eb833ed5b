import { Prisma, type Db } from '../infra/db.ts';

/**
 * The reconciler's checks of one kind of subject (users, orders, cashouts, refunds,
 * packages), each given a batch of ids: the full audit walks every id of a table in
 * batches, the scheduled run only the ids that changed since its last run. Each rule
 * lives here once and reads only the rows of its batch, through indexes: the typed
 * ledger columns (orderId, cashoutId; an order's rewards and overpayment credits through
 * partial indexes on those kinds, which the kinds written as literals here select), the
 * covering index of a user's entries, and the foreign keys of payments, refunds, items
 * and movements.
 */
export type Add = (check: string, message: string, ids: Record<string, string>) => void;

/**
 * The rows of a batch: its ids, and the range they span as a bound the index scan starts
 * from. An audit batch is a run of consecutive ids; given the list alone, the planner read
 * a table of 80,000 cashouts whole for each batch of 2,000. (A uuid's text in lower case
 * sorts as Postgres sorts the uuid.)
 */
export function inBatch(column: string, ids: string[]): Prisma.Sql {
  const sorted = ids.map((id) => id.toLowerCase()).sort();
  const col = Prisma.raw(column);
  return Prisma.sql`${col} = ANY(${ids}::uuid[]) AND ${col} BETWEEN ${sorted[0]}::uuid AND ${sorted[sorted.length - 1]}::uuid`;
}

const usd = (d: Prisma.Decimal | string | number) => `$${new Prisma.Decimal(d).toFixed(2)}`;
const dec = (d: Prisma.Decimal | string | number) => new Prisma.Decimal(d);

/** Each user's balances equal the sums of their ledger entries. */
export async function checkBalances(db: Db, ids: string[], add: Add): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db.$queryRaw<{ id: string; active: Prisma.Decimal; passive: Prisma.Decimal; ledgerActive: Prisma.Decimal; ledgerPassive: Prisma.Decimal }[]>`
    SELECT u."id", u."activeBalance" AS active, u."passiveBalance" AS passive,
           COALESCE((SELECT SUM(l."amount") FROM "LedgerEntry" l WHERE l."userId" = u."id" AND l."account" = 'ACTIVE'), 0) AS "ledgerActive",
           COALESCE((SELECT SUM(l."amount") FROM "LedgerEntry" l WHERE l."userId" = u."id" AND l."account" = 'PASSIVE'), 0) AS "ledgerPassive"
    FROM "User" u WHERE ${inBatch('u."id"', ids)}`;
  for (const b of rows) {
    for (const [account, balance, ledger] of [['active', b.active, b.ledgerActive], ['passive', b.passive, b.ledgerPassive]] as const) {
      if (!dec(balance).eq(dec(ledger))) add('balance-ledger', `The ${account} balance is ${usd(balance)} but its ledger sums to ${usd(ledger)}`, { userId: b.id });
    }
  }
}

/**
 * Ledger kinds that name an order but that no order check reads (its daily credit):
 * such an entry changes nothing checked here, so the scheduled run does not check the
 * order again for it. (A list of the kinds left out, so a new kind is checked.)
 */
export const ORDER_UNCHECKED_KINDS = ['DAILY_CREDIT'];

/**
 * Each order against its counted transfers, its referral rewards, its settled
 * overpayment and the stock its lines hold.
 */
export async function checkOrders(db: Db, ids: string[], add: Add): Promise<void> {
  if (ids.length === 0) return;
  const orders = await db.$queryRaw<{ id: string; status: string; totalPrice: Prisma.Decimal; paidUsd: Prisma.Decimal; counted: Prisma.Decimal; countedN: bigint }[]>`
    SELECT o."id", o."status"::text AS status, o."totalPrice", o."paidUsd",
           COALESCE(SUM(p."usdValue") FILTER (WHERE p."status" = 'COUNTED'), 0) AS counted,
           COUNT(p."id") FILTER (WHERE p."status" = 'COUNTED') AS "countedN"
    FROM "Order" o LEFT JOIN "Payment" p ON p."orderId" = o."id"
    WHERE ${inBatch('o."id"', ids)}
    GROUP BY o."id"`;
  for (const o of orders) {
    const counted = dec(o.counted);
    if (!dec(o.paidUsd).eq(counted)) add('order-paid-sum', `The order records ${usd(o.paidUsd)} paid but its counted transfers add up to ${usd(counted)}`, { orderId: o.id });
    if (o.status === 'PAID' && counted.lt(o.totalPrice)) add('paid-not-covered', `The order is PAID but its counted transfers (${usd(counted)}) do not cover its total (${usd(o.totalPrice)})`, { orderId: o.id });
    if (['PENDING_PAYMENT', 'UNDERPAID', 'VERIFYING'].includes(o.status) && Number(o.countedN) > 0 && counted.gte(o.totalPrice)) {
      add('covered-not-paid', `The order's counted transfers (${usd(counted)}) cover its total but it is ${o.status}`, { orderId: o.id });
    }
  }

  // Referral rewards: posted at most once per paid state.
  const rewards = await db.$queryRaw<{ orderId: string; status: string; rewards: bigint; reversals: bigint }[]>`
    SELECT o."id" AS "orderId", o."status"::text AS status,
           COUNT(*) FILTER (WHERE l."kind" = 'REFERRAL_REWARD' AND l."amount" > 0) AS rewards,
           COUNT(*) FILTER (WHERE l."kind" = 'REFERRAL_REVERSAL' OR (l."kind" = 'REFERRAL_REWARD' AND l."amount" < 0)) AS reversals
    FROM "LedgerEntry" l JOIN "Order" o ON o."id" = l."orderId"
    WHERE ${inBatch('l."orderId"', ids)} AND l."kind" IN ('REFERRAL_REWARD', 'REFERRAL_REVERSAL')
    GROUP BY o."id"`;
  for (const r of rewards) {
    const net = Number(r.rewards) - Number(r.reversals);
    if (net < 0 || net > 1 || (r.status !== 'PAID' && net !== 0)) {
      add('referral-reward', `The order's referral reward was posted ${r.rewards} time(s) and reversed ${r.reversals} time(s) while it is ${r.status}`, { orderId: r.orderId });
    }
  }

  // Settled overpayment: refunds plus credits, never more than was overpaid. In USD for every
  // asset; in wei for ETH's parts (a token part's refund is in its own units, settled on its transfer).
  const overpaid = await db.$queryRaw<
    { id: string; overpaidUsd: Prisma.Decimal; settled: Prisma.Decimal; settledWei: Prisma.Decimal; creditedUsd: Prisma.Decimal; creditedWei: Prisma.Decimal; refunded: Prisma.Decimal; refundedWei: Prisma.Decimal; credited: Prisma.Decimal }[]
  >`
    SELECT o."id", o."overpaidUsd", o."overpaidSettledUsd" AS settled, o."overpaidSettledWei" AS "settledWei",
           o."overpaidCreditedUsd" AS "creditedUsd", o."overpaidCreditedWei" AS "creditedWei",
           COALESCE(r.usd, 0) AS refunded, COALESCE(r.wei, 0) AS "refundedWei",
           COALESCE((SELECT SUM(l."amount") FROM "LedgerEntry" l WHERE l."orderId" = o."id" AND l."kind" = 'OVERPAYMENT_CREDIT'), 0) AS credited
    FROM "Order" o
    LEFT JOIN LATERAL (SELECT SUM(r."amountUsd") AS usd, SUM(r."amount") FILTER (WHERE r."asset" = 'ETH') AS wei, COUNT(*) AS n FROM "Refund" r WHERE r."orderId" = o."id" AND r."source" = 'OVERPAYMENT') r ON true
    WHERE ${inBatch('o."id"', ids)} AND (o."overpaidSettledWei" > 0 OR o."overpaidSettledUsd" > 0 OR r.n > 0)`;
  for (const o of overpaid) {
    const settled = dec(o.settled);
    const parts = dec(o.refunded).plus(o.creditedUsd);
    const weiParts = dec(o.refundedWei).plus(o.creditedWei);
    if (!settled.eq(parts)) add('overpayment-settled', `The order records ${usd(settled)} of overpayment settled but its refunds and credits add up to ${usd(parts)}`, { orderId: o.id });
    if (!dec(o.settledWei).eq(weiParts)) {
      add('overpayment-settled', `The order records ${dec(o.settledWei).toFixed(0)} wei of overpayment settled but its refunds and credits add up to ${weiParts.toFixed(0)} wei`, { orderId: o.id });
    }
    // A credit is worth at most what it settled (the lower of that and its ETH's value when credited).
    if (dec(o.credited).gt(o.creditedUsd)) {
      add('overpayment-settled', `The order's overpayment credits add up to ${usd(o.credited)}, more than the ${usd(o.creditedUsd)} of overpayment they settled`, { orderId: o.id });
    }
    if (settled.gt(o.overpaidUsd)) add('overpayment-settled', `The order settled ${usd(settled)} of overpayment but was overpaid ${usd(o.overpaidUsd)} (a payment left the chain after it was refunded or credited)`, { orderId: o.id });
  }

  // A paid order's lines carry their daily credit term (daily credit reads nothing else):
  // one left without it (a worker of an older release marked the order PAID) earns nothing.
  const unterm = await db.$queryRaw<{ orderId: string }[]>`
    SELECT DISTINCT i."orderId" FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId"
    WHERE ${inBatch('i."orderId"', ids)} AND o."status" = 'PAID' AND i."creditEndsAt" IS NULL`;
  for (const u of unterm) add('paid-without-term', "The order is PAID but a line has no daily credit term: daily credit does not read it", { orderId: u.orderId });

  // What each line holds equals what its movements took.
  const held = await db.$queryRaw<{ orderId: string; productId: string; qty: number; stockReserved: boolean; net: bigint }[]>`
    SELECT i."orderId", i."productId", i."qty", o."stockReserved",
           COALESCE((SELECT SUM(m."delta") FROM "StockMovement" m WHERE m."orderId" = i."orderId" AND m."productId" = i."productId"), 0) AS net
    FROM "OrderItem" i JOIN "Order" o ON o."id" = i."orderId"
    WHERE ${inBatch('i."orderId"', ids)}`;
  for (const h of held) {
    const expected = h.stockReserved ? -h.qty : 0;
    if (Number(h.net) !== expected) {
      add('stock-held', `The order ${h.stockReserved ? `holds ${h.qty}` : 'holds none'} of the package but its movements took ${-Number(h.net)}`, { orderId: h.orderId, productId: h.productId });
    }
  }
}

/**
 * Each cashout's ledger entries match its amount and state; a PAID one names an accepted
 * payout. The payout check is a subquery with LIMIT, read per row by PayoutCheck(cashoutId):
 * as EXISTS it was planned as a hash over every payout check, for each batch of the audit.
 */
export async function checkCashouts(db: Db, ids: string[], add: Add): Promise<void> {
  if (ids.length === 0) return;
  const cashouts = await db.$queryRaw<{ id: string; status: string; amountUsd: Prisma.Decimal; ledger: Prisma.Decimal; verified: boolean }[]>`
    SELECT c."id", c."status"::text AS status, c."amountUsd",
           COALESCE((SELECT SUM(l."amount") FROM "LedgerEntry" l WHERE l."cashoutId" = c."id" AND l."kind" = 'CASHOUT'), 0) AS ledger,
           COALESCE((SELECT true FROM "PayoutCheck" k WHERE k."cashoutId" = c."id" AND k."status" = 'ACCEPTED' AND lower(k."txHash") = lower(c."payoutTxHash") LIMIT 1), false) AS verified
    FROM "CashoutRequest" c WHERE ${inBatch('c."id"', ids)}`;
  for (const c of cashouts) {
    // Rejected by an admin or cancelled by the owner: the amount went back.
    const expected = c.status === 'REJECTED' || c.status === 'CANCELLED' ? dec(0) : dec(c.amountUsd).negated();
    if (!dec(c.ledger).eq(expected)) add('cashout-ledger', `The cashout of ${usd(c.amountUsd)} (${c.status}) has ledger entries summing to ${usd(c.ledger)}`, { cashoutId: c.id });
    if (c.status === 'PAID' && !c.verified) add('payout-unverified', 'The cashout is PAID without a payout transaction the worker accepted', { cashoutId: c.id });
  }
}

/** A PAID refund names an accepted payout; a transfer's refund is its whole value and the transfer is REFUNDED. */
export async function checkRefunds(db: Db, ids: string[], add: Add): Promise<void> {
  if (ids.length === 0) return;
  const refunds = await db.$queryRaw<{ id: string; source: string; status: string; amount: Prisma.Decimal; paid: Prisma.Decimal | null; asset: string; paymentStatus: string | null; verified: boolean }[]>`
    SELECT r."id", r."source"::text AS source, r."status"::text AS status, r."amount", r."asset"::text AS asset, p."amount" AS paid, p."status"::text AS "paymentStatus",
           COALESCE((SELECT true FROM "PayoutCheck" k WHERE k."refundId" = r."id" AND k."status" = 'ACCEPTED' AND lower(k."txHash") = lower(r."payoutTxHash") LIMIT 1), false) AS verified
    FROM "Refund" r LEFT JOIN "Payment" p ON p."id" = r."paymentId"
    WHERE ${inBatch('r."id"', ids)}`;
  for (const r of refunds) {
    if (r.status === 'PAID' && !r.verified) add('payout-unverified', 'The refund is PAID without a payout transaction the worker accepted', { refundId: r.id });
    if (r.source !== 'TRANSFER') continue;
    if (r.paymentStatus !== 'REFUNDED' || r.paid === null || !dec(r.paid).eq(r.amount)) {
      add('refund-transfer', `A refund of ${dec(r.amount).toFixed(0)} (${r.asset}'s smallest units) does not match its transfer (${r.paymentStatus ?? 'missing'}, ${r.paid === null ? '?' : dec(r.paid).toFixed(0)})`, { refundId: r.id });
    }
  }
}

/** A package's count equals its movement log. */
export async function checkPackages(db: Db, ids: string[], add: Add): Promise<void> {
  if (ids.length === 0) return;
  const stock = await db.$queryRaw<{ id: string; countInStock: number; logged: bigint | null }[]>`
    SELECT p."id", p."countInStock", (SELECT SUM(m."delta") FROM "StockMovement" m WHERE m."productId" = p."id") AS logged
    FROM "Product" p WHERE ${inBatch('p."id"', ids)}`;
  for (const p of stock) {
    if (Number(p.logged ?? 0) !== p.countInStock) add('stock-log', `The package has ${p.countInStock} in stock but its movements add up to ${p.logged ?? 0}`, { productId: p.id });
  }
}

/** Counted transfers with no order, block or value (given ids, or every one). */
export async function checkCountedComplete(db: Db, ids: string[], add: Add): Promise<void> {
  if (ids.length === 0) return;
  const strays = await db.payment.findMany({
    where: { id: { in: ids }, status: 'COUNTED', OR: [{ orderId: null }, { blockHash: null }, { usdValue: null }] },
    select: { id: true, txHash: true },
  });
  for (const p of strays) add('counted-incomplete', 'A counted transfer has no order, block or value', { paymentId: p.id, txHash: p.txHash });
}
