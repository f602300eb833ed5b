import { Prisma, type Db } from '@shop/core';
import { orderReference, type ExportFile } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type Cursor } from '../../middleware/paging.ts';
import { text, type Cell, type Text } from './csv.ts';
import type { DayRange } from './service.ts';

/**
 * The CSV exports of a range: each file is read a keyset page at a time through an index
 * that starts at the range (Order(createdAt, id), x_order_paid_at, Payment(createdAt, id),
 * LedgerEntry(createdAt)), so a year of 20M ledger entries streams in constant memory.
 * Amounts are exact strings; every order is named by its reference beside its id.
 */
export const EXPORT_PAGE_SIZE = 1_000;

export type ExportSpec<Row> = {
  header: string[];
  nextPage: (after: Row | null) => Promise<Row[]>;
  toLines: (rows: Row[]) => Promise<(Cell | Text)[][]>;
};

const iso = (d: Date | null | undefined) => d?.toISOString() ?? '';
const usd = (d: Prisma.Decimal | null | undefined) => (d ? d.toFixed(2) : '');
const ref = (id: string | null | undefined) => (id ? orderReference(id) : '');
const cursorOf = (row: { createdAt: Date; id: string }): Cursor => ({ key: row.createdAt, id: row.id });

type OrderRow = {
  id: string; createdAt: Date; paidAt: Date | null; status: string; userId: string; buyerEmail: string | null; buyerName: string | null;
  items: string | null; itemsPrice: string; totalPrice: string; paidUsd: string; overpaidUsd: string;
};

const ORDER_HEADER = [
  'orderReference', 'orderId', 'createdAt', 'paidAt', 'status', 'buyerId', 'buyerEmail', 'buyerName',
  'items', 'itemsPrice', 'totalPrice', 'paidUsd', 'overpaidUsd',
];
const orderLine = (o: OrderRow): (Cell | Text)[] => [
  orderReference(o.id), o.id, iso(o.createdAt), iso(o.paidAt), o.status, o.userId, text(o.buyerEmail), text(o.buyerName),
  text(o.items), o.itemsPrice, o.totalPrice, o.paidUsd, o.overpaidUsd,
];

/**
 * A page of orders with their buyer and lines. The buyer and the lines are read for each
 * order of the page through their indexes (User's key, OrderItem(orderId)): subqueries,
 * never a join the planner could turn into a read of every user or every line sold.
 * Amounts are numeric(18,2) as text: exact, with their two decimals.
 */
const orderPage = (where: Prisma.Sql, orderBy: Prisma.Sql) => Prisma.sql`
  SELECT o."id"::text AS "id", o."createdAt", o."paidAt", o."status"::text AS "status", o."userId"::text AS "userId",
    u."email" AS "buyerEmail", u."name" AS "buyerName",
    (SELECT string_agg(i."qty" || ' x ' || i."name" || ' @ ' || i."price"::text, '; ' ORDER BY i."id") FROM "OrderItem" i WHERE i."orderId" = o."id") AS "items",
    o."itemsPrice"::text AS "itemsPrice", o."totalPrice"::text AS "totalPrice", o."paidUsd"::text AS "paidUsd", o."overpaidUsd"::text AS "overpaidUsd"
  FROM "Order" o
  LEFT JOIN LATERAL (SELECT "email", "name" FROM "User" WHERE "id" = o."userId" OFFSET 0) u ON true
  WHERE ${where}
  ORDER BY ${orderBy}
  LIMIT ${EXPORT_PAGE_SIZE}`;

/** Rows after `after` in (column, id) order, from the range's start on: the bound first, so the index scan starts there. */
function keyset(column: Prisma.Sql, after: { at: Date; id: string } | null, start: Date): Prisma.Sql {
  if (!after) return Prisma.sql`${column} >= ${start}`;
  return Prisma.sql`${column} >= ${after.at} AND (${column} > ${after.at} OR o."id" > ${after.id}::uuid)`;
}

/** Orders placed in the range, in every state, oldest first: Order(createdAt, id). */
function ordersPlaced(db: Db, range: DayRange): ExportSpec<OrderRow> {
  return {
    header: ORDER_HEADER,
    nextPage: (after) =>
      db.$queryRaw<OrderRow[]>(
        orderPage(
          Prisma.sql`${keyset(Prisma.sql`o."createdAt"`, after && { at: after.createdAt, id: after.id }, range.start)} AND o."createdAt" < ${range.end}`,
          Prisma.sql`o."createdAt", o."id"`,
        ),
      ),
    toLines: async (rows) => rows.map(orderLine),
  };
}

/**
 * Orders paid in the range, by the time they were paid: the rows behind the chart's
 * revenue (their totalPrice adds up to it), read in order from x_order_paid_at (which
 * needs 'PAID' as a literal).
 */
function ordersPaid(db: Db, range: DayRange): ExportSpec<OrderRow> {
  return {
    header: ORDER_HEADER,
    nextPage: (after) =>
      db.$queryRaw<OrderRow[]>(
        orderPage(
          Prisma.sql`o."status" = 'PAID' AND ${keyset(Prisma.sql`o."paidAt"`, after && { at: after.paidAt!, id: after.id }, range.start)} AND o."paidAt" < ${range.end}`,
          Prisma.sql`o."paidAt", o."id"`,
        ),
      ),
    toLines: async (rows) => rows.map(orderLine),
  };
}

type PaymentRow = Prisma.PaymentGetPayload<object>;

/** Transfers first seen in the range, in every state, oldest first: Payment(createdAt, id). */
function payments(db: Db, range: DayRange): ExportSpec<PaymentRow> {
  return {
    header: [
      'paymentId', 'createdAt', 'txHash', 'status', 'source', 'orderReference', 'orderId', 'fromAddress',
      'asset', 'amount', 'valueWei', 'usdValue', 'blockNumber', 'blockTimestamp', 'reason',
    ],
    nextPage: (after) =>
      db.payment.findMany({
        where: { AND: [{ createdAt: { gte: range.start, lt: range.end } }, keysetWhere('createdAt', 'asc', after && cursorOf(after)) as Prisma.PaymentWhereInput] },
        orderBy: keysetOrder('createdAt', 'asc') as Prisma.PaymentOrderByWithRelationInput[],
        take: EXPORT_PAGE_SIZE,
      }),
    toLines: async (rows) =>
      rows.map((p) => [
        p.id, iso(p.createdAt), p.txHash, p.status, p.source, ref(p.orderId), p.orderId ?? '', p.fromAddress ?? '',
        // What arrived in its own asset's smallest units; `valueWei` the same for ETH only (empty for a token).
        p.asset, p.amount?.toFixed(0) ?? '', p.asset === 'ETH' ? (p.amount?.toFixed(0) ?? '') : '', usd(p.usdValue), p.blockNumber?.toString() ?? '', iso(p.blockTimestamp), text(p.reason),
      ]),
  };
}

type LedgerRow = {
  id: string; createdAt: Date; userId: string; userEmail: string | null; account: string; kind: string; amount: string;
  orderId: string | null; cashoutId: string | null; reference: string | null;
};

/**
 * Ledger entries written in the range, oldest first: LedgerEntry(createdAt), entries of
 * the same instant in id order; each entry's user e-mail by the user's key.
 */
function ledger(db: Db, range: DayRange): ExportSpec<LedgerRow> {
  return {
    header: ['entryId', 'createdAt', 'userId', 'userEmail', 'account', 'kind', 'amount', 'orderReference', 'orderId', 'cashoutId', 'reference'],
    nextPage: (after) => {
      const from = after ? Prisma.sql`l."createdAt" >= ${after.createdAt} AND (l."createdAt" > ${after.createdAt} OR l."id" > ${after.id}::uuid)` : Prisma.sql`l."createdAt" >= ${range.start}`;
      return db.$queryRaw<LedgerRow[]>`
        SELECT l."id"::text AS "id", l."createdAt", l."userId"::text AS "userId", u."email" AS "userEmail", l."account"::text AS "account", l."kind"::text AS "kind",
          l."amount"::text AS "amount", l."orderId"::text AS "orderId", l."cashoutId"::text AS "cashoutId", l."reference"
        FROM "LedgerEntry" l
        LEFT JOIN LATERAL (SELECT "email" FROM "User" WHERE "id" = l."userId" OFFSET 0) u ON true
        WHERE ${from} AND l."createdAt" < ${range.end}
        ORDER BY l."createdAt", l."id"
        LIMIT ${EXPORT_PAGE_SIZE}`;
    },
    toLines: async (rows) =>
      rows.map((e) => [
        e.id, iso(e.createdAt), e.userId, text(e.userEmail), e.account, e.kind, e.amount, ref(e.orderId), e.orderId ?? '', e.cashoutId ?? '', text(e.reference),
      ]),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each file has its own row type; the stream only passes rows back
export const EXPORTS: Record<ExportFile, (db: Db, range: DayRange) => ExportSpec<any>> = {
  'paid-orders': ordersPaid,
  orders: ordersPlaced,
  payments,
  ledger,
};
