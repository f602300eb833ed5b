import { Prisma, type Db, type Product } from '../infra/db.ts';
import { conflict, notFound } from '../infra/errors.ts';

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

/** What an order needs of a package, read under its lock. */
export type LockedPackage = {
  id: string;
  countInStock: number;
  name: string;
  image: string;
  price: Prisma.Decimal;
  dailyCredit: Prisma.Decimal;
  durationDays: number;
  deletedAt: Date | null;
  /** Null while the package is a draft: not on sale. */
  publishedAt: Date | null;
};

/** Locks the packages (in id order) and reads them. */
export async function lockPackages(tx: Tx, ids: string[]): Promise<Map<string, LockedPackage>> {
  const sorted = [...new Set(ids)].sort();
  const rows = await tx.$queryRaw<LockedPackage[]>`
    SELECT "id", "countInStock", "name", "image", "price", "dailyCredit", "durationDays", "deletedAt", "publishedAt"
    FROM "Product" WHERE "id" = ANY(${sorted}::uuid[]) ORDER BY "id" FOR NO KEY UPDATE`;
  return new Map(rows.map((r) => [r.id, { ...r, price: new Prisma.Decimal(String(r.price)), dailyCredit: new Prisma.Decimal(String(r.dailyCredit)) }]));
}

export type Shortage = { productId: string; name: string; left: number };

/**
 * The stock check, the only one: the first line the locked counts cannot cover, or
 * null. `forNewOrder` also refuses hidden (deleted) packages; an order already placed
 * may take stock of a package hidden since.
 */
export function shortageOf(lines: Line[], packages: Map<string, Pick<LockedPackage, 'countInStock' | 'name' | 'deletedAt'>>, opts: { forNewOrder?: boolean } = {}): Shortage | null {
  for (const line of byProduct(lines)) {
    const p = packages.get(line.productId);
    const hidden = Boolean(opts.forNewOrder && p?.deletedAt);
    if (!p || hidden || p.countInStock < line.qty) return { productId: line.productId, name: p?.name ?? 'a package', left: p && !hidden ? p.countInStock : 0 };
  }
  return null;
}

/**
 * Takes the stock of orders already checked (shortageOf) against counts locked in this
 * transaction: each package row once, and a RESERVED movement per order and package.
 */
export async function writeReservations(tx: Tx, orders: { orderId: string; lines: Line[] }[]): Promise<void> {
  const perOrder = orders.map((o) => ({ orderId: o.orderId, lines: byProduct(o.lines) }));
  const total = byProduct(perOrder.flatMap((o) => o.lines));
  if (total.length === 0) return;
  await tx.$executeRaw`
    UPDATE "Product" AS p SET "countInStock" = p."countInStock" - t."qty", "updatedAt" = now()
    FROM unnest(${total.map((l) => l.productId)}::uuid[], ${total.map((l) => l.qty)}::int[]) AS t("id", "qty")
    WHERE p."id" = t."id"`;
  const moves = perOrder.flatMap((o) => o.lines.map((l) => ({ orderId: o.orderId, ...l })));
  await tx.$executeRaw`
    INSERT INTO "StockMovement" ("id", "productId", "orderId", "kind", "delta")
    SELECT gen_random_uuid(), m."productId", m."orderId", 'RESERVED', -m."qty"
    FROM unnest(${moves.map((m) => m.productId)}::uuid[], ${moves.map((m) => m.orderId)}::uuid[], ${moves.map((m) => m.qty)}::int[]) AS m("productId", "orderId", "qty")`;
}

/**
 * Takes an existing order's stock, all or nothing: every package row is locked (in id
 * order) and checked before any is changed, so a package that is short leaves every
 * other one as it was. Marks the order as holding stock. Returns the first shortage, or
 * null. (New orders take theirs as they are placed: placeOrders in orders.ts.)
 */
export async function reserveStock(tx: Tx, orderId: string): Promise<Shortage | null> {
  const lines = await tx.orderItem.findMany({ where: { orderId }, select: { productId: true, qty: true } });
  const packages = await lockPackages(tx, lines.map((l) => l.productId));
  const short = shortageOf(lines, packages);
  if (short) return short;
  await writeReservations(tx, [{ orderId, lines }]);
  await tx.order.update({ where: { id: orderId }, data: { stockReserved: true } });
  return null;
}

/** Gives an order's stock back, once: the flag flips in the same statement that checks it. */
export async function releaseStock(tx: Tx, orderId: string): Promise<boolean> {
  const flipped = await tx.order.updateMany({ where: { id: orderId, stockReserved: true }, data: { stockReserved: false } });
  if (flipped.count !== 1) return false;
  const items = await tx.orderItem.findMany({ where: { orderId }, select: { productId: true, qty: true } });
  const lines = byProduct(items);
  await lockPackages(tx, lines.map((l) => l.productId));
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

/** A stock count changed on a form loaded before orders took or gave back stock: a 409, never an overwrite. */
export function refuseStaleStock(current: number, count: { wanted: number; loaded: number }): void {
  if (count.wanted !== count.loaded && current !== count.loaded) {
    throw conflict(`The stock changed since this form was loaded (it is now ${current}). Reload the package and enter the change again.`);
  }
}

/**
 * An admin's new stock count for a package. The form sends what it loaded: when the
 * admin left the count as it was, nothing changes (orders may have taken stock since);
 * when they changed it but orders took or gave back stock since the form was loaded,
 * it is a 409, never a silent overwrite. Otherwise the difference is one movement.
 */
export async function setStock(tx: Tx, productId: string, count: { wanted: number; loaded: number }, reference: string): Promise<void> {
  const current = (await lockPackages(tx, [productId])).get(productId);
  if (!current || current.deletedAt) throw notFound('Product not found');
  if (count.wanted === count.loaded) return;
  refuseStaleStock(current.countInStock, count);
  const delta = count.wanted - current.countInStock;
  await tx.$executeRaw`UPDATE "Product" SET "countInStock" = ${count.wanted}, "updatedAt" = now() WHERE "id" = ${productId}::uuid`;
  await tx.stockMovement.create({ data: { productId, kind: 'STOCKED', delta, reference } });
}
