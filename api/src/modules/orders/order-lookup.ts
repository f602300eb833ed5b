import { conflict, notFound, type Db } from '@shop/core';
import { idParam, orderReference, orderReferenceRange } from '@shop/core/contract';

/**
 * What a typed order names: its id, or its reference (`ORD-…`, core/src/contract/
 * order-reference.ts), read back as the range of ids it stands for on the primary key.
 * Two orders share a reference about once in 2M orders, so a range holds a handful at most.
 */
const REFERENCE_HITS_MAX = 10;

/** The orders whose reference `text` is (`bare`: the 8 characters alone count too), oldest id first; [] when it is no reference. */
export async function ordersWithReference(db: Db, text: string, opts: { bare?: boolean } = {}): Promise<string[]> {
  const range = orderReferenceRange(text, opts);
  if (!range) return [];
  const rows = await db.order.findMany({ where: { id: { gte: range.from, lte: range.to } }, select: { id: true }, orderBy: { id: 'asc' }, take: REFERENCE_HITS_MAX });
  return rows.map((r) => r.id);
}

/**
 * The one order an admin names by its id or its reference (with or without `ORD-`): 404
 * when no order has it (deleted ones included: the assignment says so itself), 409 when
 * two orders share the reference (the id tells them apart).
 */
export async function orderIdFor(db: Db, typed: string): Promise<string> {
  const text = typed.trim();
  if (idParam.safeParse(text).success) return text.toLowerCase();
  const ids = await ordersWithReference(db, text, { bare: true });
  if (ids.length === 0) throw notFound('Order not found');
  if (ids.length > 1) throw conflict(`${orderReference(ids[0]!)} is the reference of ${ids.length} orders: assign by the order's id (on its page)`);
  return ids[0]!;
}
