import { holdPackageEdit, holdPackagePublish, type AdminAudit, type ApprovalRow } from '../approvals/index.ts';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db, type Product } from '../infra/db.ts';
import { notFound } from '../infra/errors.ts';
import { lockPackages, refuseStaleStock, setStock } from './stock.ts';

/**
 * An admin's writes to a package: an edit of its fields, and putting it on sale or
 * taking it off. Each locks the package row first (as orders taking its stock do). A
 * change that would let one admin create money (a package that pays more than it costs,
 * approvals/packages.ts) waits for a second admin: `held` is then the approval.
 */

export const PACKAGE_NOT_FOUND = 'Product not found';

/** An admin's edit as the form sends it (USD as exact strings; the stock the form was loaded with). */
export type PackageEdit = {
  name: string;
  image: string;
  description: string;
  price: string;
  dailyCredit: string;
  countInStock: number;
  loadedCountInStock: number;
  durationDays?: number;
};

async function lockLive(tx: Prisma.TransactionClient, id: string) {
  const current = (await lockPackages(tx, [id])).get(id);
  if (!current || current.deletedAt) throw notFound(PACKAGE_NOT_FOUND);
  return current;
}

/**
 * Saves an admin's edit. Stock goes through setStock (a movement, never a stale
 * overwrite). When the edit's terms wait for a second admin, its name, image and text are
 * saved and its price, credit, term and stock change are held.
 */
export async function editPackage(
  db: Db,
  config: Pick<AppConfig, 'packageCreditMultiple'>,
  audit: AdminAudit,
  id: string,
  input: PackageEdit,
): Promise<{ product: Product; held: ApprovalRow | null }> {
  return db.$transaction(async (tx) => {
    const current = await lockLive(tx, id);
    const stock = { wanted: input.countInStock, loaded: input.loadedCountInStock };
    refuseStaleStock(current.countInStock, stock);
    const terms = { price: new Prisma.Decimal(input.price), dailyCredit: new Prisma.Decimal(input.dailyCredit), durationDays: input.durationDays ?? current.durationDays };
    const held = await holdPackageEdit(tx, config, audit, current, { ...terms, name: input.name, stockAdded: stock.wanted - stock.loaded });
    if (!held) await setStock(tx, id, stock, `admin:${audit.actor.id}`);
    const product = await tx.product.update({
      where: { id },
      data: { name: input.name, image: input.image, description: input.description, ...(held ? {} : terms) },
    });
    return { product, held };
  });
}

/**
 * Puts a package on sale (published now; one on sale keeps the date it went on sale) or
 * takes it off (a draft again). Publishing one that creates money waits for a second
 * admin (`held`; the package stays a draft). The package before and after.
 */
export async function publishPackage(
  db: Db,
  config: Pick<AppConfig, 'packageCreditMultiple'>,
  audit: AdminAudit,
  id: string,
  published: boolean,
): Promise<{ before: Product; after: Product; held: ApprovalRow | null }> {
  return db.$transaction(async (tx) => {
    await lockLive(tx, id);
    const before = await tx.product.findUniqueOrThrow({ where: { id } });
    const held = published ? await holdPackagePublish(tx, config, audit, { ...before }) : null;
    if (!held && (!published || before.publishedAt === null)) {
      await tx.product.update({ where: { id }, data: { publishedAt: published ? new Date() : null } });
    }
    return { before, after: await tx.product.findUniqueOrThrow({ where: { id } }), held };
  });
}
