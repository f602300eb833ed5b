import { usdNumber } from './money.ts';
import type { OrderStatus } from './orders.ts';
import type { OrderAmountsJson, OrderItemJson, OrderJson, OrderLineJson, OrderStateJson } from './orders-json.ts';

// An order as the api sends it: the one mapper from a stored order to its JSON. The buyer's
// view is built here; the admin's views (the order list, the order page) are built from
// the same parts, so a field added to a part (and to its schema in orders-json.ts) shows
// in every view. Pure: it reads a row and formats it.

/** A decimal amount as the database gives it (Prisma's Decimal). */
type Amount = { toFixed(decimalPlaces: number): string };

/** One line of an order as stored (an OrderItem row). */
export type OrderLineRecord = {
  name: string;
  image: string;
  price: Amount;
  qty: number;
  productId: string;
  dailyCredit: Amount;
  durationDays: number;
  creditEndsAt: Date | null;
};

/** An order as stored, with its lines (an Order row with `items`). */
export type OrderRecord = {
  id: string;
  status: OrderStatus;
  createdAt: Date;
  paidAt: Date | null;
  expiresAt: Date | null;
  paymentDeadline: Date | null;
  itemsPrice: Amount;
  totalPrice: Amount;
  paidUsd: Amount;
  items: OrderLineRecord[];
};

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

/** Where the order stands and when: every view of an order. */
export function orderStateView(o: OrderRecord): OrderStateJson {
  return {
    status: o.status,
    isPaid: o.status === 'PAID',
    createdAt: o.createdAt.toISOString(),
    paidAt: iso(o.paidAt),
    expiresAt: iso(o.expiresAt),
    paymentDeadline: iso(o.paymentDeadline),
  };
}

/** What the order costs and what it received, in USD: every view of an order. */
export function orderAmountsView(o: OrderRecord): OrderAmountsJson {
  return { itemsPrice: usdNumber(o.itemsPrice), totalPrice: usdNumber(o.totalPrice), paidUsd: usdNumber(o.paidUsd) };
}

/** One line as bought: every view of an order. */
export function orderLineView(i: OrderLineRecord): OrderLineJson {
  return {
    name: i.name,
    image: i.image,
    price: usdNumber(i.price),
    qty: i.qty,
    product: i.productId,
    dailyCredit: usdNumber(i.dailyCredit),
    durationDays: i.durationDays,
  };
}

/** One line as the buyer reads it: as bought, and when its daily credit ends. */
function orderItemView(i: OrderLineRecord): OrderItemJson {
  return { ...orderLineView(i), creditEndsAt: iso(i.creditEndsAt) };
}

/**
 * An order as its buyer reads it (placing, their list, the order page, a cancel) and as
 * the admin's order list shows it (`userAsObject`: the buyer named). The order page and the
 * admin's views add their own fields to it.
 */
export function orderView(o: OrderRecord & { user: { id: string; name: string } }, opts: { userAsObject?: boolean } = {}): OrderJson {
  return {
    _id: o.id,
    user: opts.userAsObject ? { _id: o.user.id, name: o.user.name } : o.user.id,
    ...orderStateView(o),
    ...orderAmountsView(o),
    orderedItems: o.items.map(orderItemView),
  };
}
