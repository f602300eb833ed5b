import { createProduct, Prisma, setStock, type Db, type Product } from '@shop/core';
import type { ProductJson, updateProductBody } from '@shop/core/contract';
import type { z } from 'zod';
import { notFound } from '@shop/core';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

export type ProductInput = z.output<typeof updateProductBody>;

export const NOT_FOUND = 'Product not found';

/** What POST /api/products creates: a placeholder package the admin then edits. */
export const SAMPLE_PRODUCT = {
  name: 'Sample name',
  price: '0',
  image: '/images/sampler.svg',
  description: 'Sample description',
  countInStock: 0,
  dailyCredit: '0',
  durationDays: 30,
} as const;

// Decimal(18,2) columns: toFixed(2) is exact, and Number() of a 2-decimal string
// serialises back to the same digits in JSON.
const money = (d: Prisma.Decimal): number => Number(d.toFixed(2));

/** The API shape of a package; orders reuse it. */
export function toProductJson(p: Product): ProductJson {
  return {
    _id: p.id,
    name: p.name,
    image: p.image,
    description: p.description,
    price: money(p.price),
    rating: Number(p.rating.toFixed(2)),
    numReviews: p.numReviews,
    countInStock: p.countInStock,
    dailyCredit: money(p.dailyCredit),
    durationDays: p.durationDays,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/**
 * One page of the catalogue, oldest package first, optionally those whose name contains
 * `q` (any case; a trigram index serves it). Index Product(createdAt, id) WHERE not deleted.
 */
export function productsPage(db: Db, q: string | undefined, page: PageQuery): Promise<Product[]> {
  return db.product.findMany({
    where: {
      deletedAt: null,
      ...(q ? { name: { contains: q, mode: 'insensitive' } } : {}),
      ...(keysetWhere('createdAt', 'asc', page.after) as Prisma.ProductWhereInput),
    },
    orderBy: keysetOrder('createdAt', 'asc') as Prisma.ProductOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

export async function findProduct(db: Db, id: string): Promise<ProductJson | null> {
  const row = await db.product.findFirst({ where: { id, deletedAt: null } });
  return row ? toProductJson(row) : null;
}

export async function createSampleProduct(db: Db): Promise<ProductJson> {
  return toProductJson(await createProduct(db, { ...SAMPLE_PRODUCT }));
}

const isRecordNotFound = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2025';
const isForeignKeyViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2003';

/** An admin's edit; the stock count goes through core's setStock (movement log, no stale overwrite). */
export async function updateProduct(db: Db, id: string, input: ProductInput, actorId: string): Promise<ProductJson> {
  try {
    const row = await db.$transaction(async (tx) => {
      await setStock(tx, id, { wanted: input.countInStock, loaded: input.loadedCountInStock }, `admin:${actorId}`);
      return tx.product.update({
        where: { id, deletedAt: null },
        data: {
          name: input.name,
          price: input.price,
          image: input.image,
          dailyCredit: input.dailyCredit,
          description: input.description,
          ...(input.durationDays === undefined ? {} : { durationDays: input.durationDays }),
        },
      });
    });
    return toProductJson(row);
  } catch (err) {
    if (isRecordNotFound(err)) throw notFound(NOT_FOUND);
    throw err;
  }
}

/**
 * Removes a package. One that no order refers to is deleted outright; otherwise it is
 * only hidden (deletedAt), so orders keep their product reference. An order placed
 * between the check and the delete makes the foreign key refuse the delete, and we
 * fall back to hiding it.
 */
export async function deleteProduct(db: Db, id: string): Promise<{ mode: 'deleted' | 'hidden' }> {
  const product = await db.product.findFirst({ where: { id, deletedAt: null }, select: { id: true } });
  if (!product) throw notFound(NOT_FOUND);
  const referenced = (await db.orderItem.count({ where: { productId: id } })) > 0;
  if (!referenced) {
    try {
      await db.product.delete({ where: { id } });
      return { mode: 'deleted' };
    } catch (err) {
      if (isRecordNotFound(err)) throw notFound(NOT_FOUND);
      if (!isForeignKeyViolation(err)) throw err;
    }
  }
  const hidden = await db.product.updateMany({ where: { id, deletedAt: null }, data: { deletedAt: new Date() } });
  if (hidden.count === 0) throw notFound(NOT_FOUND);
  return { mode: 'hidden' };
}
