import { Prisma, type Db, type Product } from '../db.ts';
import { conflict, notFound } from '../errors.ts';

/**
 * The one home of stock: every change of a package's count goes through here, in the
 * caller's transaction, with a StockMovement row saying what caused it (the reconciler
 * checks both). Package rows are locked in id order everywhere, so two transactions
 * that take stock of the same packages never wait on each other in a circle; the lock
 * is NO KEY UPDATE, which the key-share locks an order's items hold on their packages
 * (taken when the items were inserted) do not block.
 */
type Tx = Prisma.TransactionClient;
type Line = { productId: string; qty: number };

/** Lines merged per package and sorted by id: the order rows are locked in. */
function byProduct(lines: Line[]): Line[] {
  const merged = new Map<string, number>();
  for (const l of lines) merged.set(l.productId, (merged.get(l.productId) ?? 0) + l.qty);
  return [...merged].map(([productId, qty]) => ({ productId, qty })).sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
}

async function lockProducts(tx: Tx, ids: string[]): Promise<Map<string, { countInStock: number; name: string; deletedAt: Date | null }>> {
  const rows = await tx.$queryRaw<{ id: string; countInStock: number; name: string; deletedAt: Date | null }[]>`
    SELECT "id", "countInStock", "name", "deletedAt" FROM "Product" WHERE "id" = ANY(${ids}::uuid[]) ORDER BY "id" FOR NO KEY UPDATE`;
  return new Map(rows.map((r) => [r.id, r]));
}

export type Shortage = { productId: string; name: string; left: number };

/**
 * Takes an order's stock, all or nothing: every package row is locked (in id order)
 * and checked before any is changed, so a package that is short leaves every other
 * one as it was. Marks the order as holding stock. Returns the first shortage, or null.
 * `forNewOrder` also refuses hidden (deleted) packages; an order already placed may
 * take stock of a package hidden since.
 */
export async function reserveStock(tx: Tx, orderId: string, opts: { forNewOrder?: boolean } = {}): Promise<Shortage | null> {
  const items = await tx.orderItem.findMany({ where: { orderId }, select: { productId: true, qty: true } });
  const lines = byProduct(items);
  const products = await lockProducts(tx, lines.map((l) => l.productId));
  for (const line of lines) {
    const p = products.get(line.productId);
    if (!p || (opts.forNewOrder && p.deletedAt) || p.countInStock < line.qty) {
      return { productId: line.productId, name: p?.name ?? 'a package', left: p && !(opts.forNewOrder && p.deletedAt) ? p.countInStock : 0 };
    }
  }
  for (const line of lines) {
    await tx.$executeRaw`UPDATE "Product" SET "countInStock" = "countInStock" - ${line.qty}, "updatedAt" = now() WHERE "id" = ${line.productId}::uuid`;
  }
  await tx.stockMovement.createMany({ data: lines.map((l) => ({ productId: l.productId, orderId, kind: 'RESERVED' as const, delta: -l.qty })) });
  await tx.order.update({ where: { id: orderId }, data: { stockReserved: true } });
  return null;
}

/** Gives an order's stock back, once: the flag flips in the same statement that checks it. */
export async function releaseStock(tx: Tx, orderId: string): Promise<boolean> {
  const flipped = await tx.order.updateMany({ where: { id: orderId, stockReserved: true }, data: { stockReserved: false } });
  if (flipped.count !== 1) return false;
  const items = await tx.orderItem.findMany({ where: { orderId }, select: { productId: true, qty: true } });
  const lines = byProduct(items);
  await lockProducts(tx, lines.map((l) => l.productId));
  for (const line of lines) {
    await tx.$executeRaw`UPDATE "Product" SET "countInStock" = "countInStock" + ${line.qty}, "updatedAt" = now() WHERE "id" = ${line.productId}::uuid`;
  }
  await tx.stockMovement.createMany({ data: lines.map((l) => ({ productId: l.productId, orderId, kind: 'RELEASED' as const, delta: l.qty })) });
  return true;
}

/** A new package and its first stock movement. */
export async function createProduct(db: Db, data: Prisma.ProductCreateInput): Promise<Product> {
  return db.$transaction(async (tx) => {
    const product = await tx.product.create({ data });
    if (product.countInStock !== 0) {
      await tx.stockMovement.create({ data: { productId: product.id, kind: 'STOCKED', delta: product.countInStock, reference: 'created' } });
    }
    return product;
  });
}

/**
 * An admin's new stock count for a package. The form sends what it loaded: when the
 * admin left the count as it was, nothing changes (orders may have taken stock since);
 * when they changed it but orders took or gave back stock since the form was loaded,
 * it is a 409, never a silent overwrite. Otherwise the difference is one movement.
 */
export async function setStock(tx: Tx, productId: string, count: { wanted: number; loaded: number }, reference: string): Promise<void> {
  const current = (await lockProducts(tx, [productId])).get(productId);
  if (!current || current.deletedAt) throw notFound('Product not found');
  if (count.wanted === count.loaded) return;
  if (current.countInStock !== count.loaded) {
    throw conflict(`The stock changed since this form was loaded (it is now ${current.countInStock}). Reload the package and enter the change again.`);
  }
  const delta = count.wanted - current.countInStock;
  await tx.$executeRaw`UPDATE "Product" SET "countInStock" = ${count.wanted}, "updatedAt" = now() WHERE "id" = ${productId}::uuid`;
  await tx.stockMovement.create({ data: { productId, kind: 'STOCKED', delta, reference } });
}
