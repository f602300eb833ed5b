import { createProduct, editPackage, packageMints, Prisma, publishPackage, type AdminAudit, type AppConfig, type Db, type Product } from '@shop/core';
import { usdNumber, type ProductJson, type updateProductBody } from '@shop/core/contract';
import type { z } from 'zod';
import { notFound } from '@shop/core';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

export type ProductInput = z.output<typeof updateProductBody>;

export const NOT_FOUND = 'Product not found';

/** A package in the admin's list: with whether publishing it (a draft) waits for a second admin, as `publishPackage` will judge it. */
export function toAdminProductJson(config: Pick<AppConfig, 'packageCreditMultiple'>, p: Product): ProductJson {
  return { ...toProductJson(p), publishWaits: p.publishedAt === null && packageMints(config, p) };
}

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

/** The API shape of a package; orders reuse it. */
export function toProductJson(p: Product): ProductJson {
  return {
    _id: p.id,
    name: p.name,
    image: p.image,
    description: p.description,
    price: usdNumber(p.price),
    rating: Number(p.rating.toFixed(2)),
    numReviews: p.numReviews,
    countInStock: p.countInStock,
    dailyCredit: usdNumber(p.dailyCredit),
    durationDays: p.durationDays,
    publishedAt: p.publishedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** What the storefront shows: packages on sale (published, not deleted). */
const ON_SALE = { deletedAt: null, publishedAt: { not: null } } satisfies Prisma.ProductWhereInput;

/**
 * One page of the catalogue, oldest package first, optionally those whose name contains
 * `q` (any case; a trigram index serves it). Read through Product(createdAt, id), the
 * deleted and the drafts filtered on the way: a shop has tens of packages, not thousands.
 * `drafts`: the admin's list, which shows drafts too.
 */
export function productsPage(db: Db, q: string | undefined, page: PageQuery, opts: { drafts?: boolean } = {}): Promise<Product[]> {
  return db.product.findMany({
    where: {
      ...(opts.drafts ? { deletedAt: null } : ON_SALE),
      ...(q ? { name: { contains: q, mode: 'insensitive' } } : {}),
      ...(keysetWhere('createdAt', 'asc', page.after) as Prisma.ProductWhereInput),
    },
    orderBy: keysetOrder('createdAt', 'asc') as Prisma.ProductOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

/** A package as the storefront shows it (on sale), or with `drafts` as an admin sees it. */
export async function findProduct(db: Db, id: string, opts: { drafts?: boolean } = {}): Promise<ProductJson | null> {
  const row = await db.product.findFirst({ where: { id, ...(opts.drafts ? { deletedAt: null } : ON_SALE) } });
  return row ? toProductJson(row) : null;
}

/** A draft: hidden from the storefront until the admin publishes it. */
export async function createSampleProduct(db: Db): Promise<ProductJson> {
  return toProductJson(await createProduct(db, { ...SAMPLE_PRODUCT, publishedAt: null }));
}

/**
 * Puts a package on sale or takes it off (core: publishing one that pays more than it
 * costs waits for a second admin: `pendingApproval`); the package before and after.
 */
export async function setPublished(
  db: Db,
  config: AppConfig,
  audit: AdminAudit,
  id: string,
  published: boolean,
): Promise<{ before: ProductJson; after: ProductJson }> {
  const { before, after, held } = await publishPackage(db, config, audit, id, published);
  return { before: toProductJson(before), after: { ...toProductJson(after), ...(held ? { pendingApproval: { _id: held.id } } : {}) } };
}

const isRecordNotFound = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2025';
const isForeignKeyViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2003';

/**
 * An admin's edit (core's editPackage: stock through setStock, no stale overwrite; a
 * change that makes a package on sale pay more than it costs waits for a second admin,
 * `pendingApproval`, its other fields saved).
 */
export async function updateProduct(db: Db, config: AppConfig, audit: AdminAudit, id: string, input: ProductInput): Promise<ProductJson> {
  const { product, held } = await editPackage(db, config, audit, id, input);
  return { ...toProductJson(product), ...(held ? { pendingApproval: { _id: held.id } } : {}) };
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
