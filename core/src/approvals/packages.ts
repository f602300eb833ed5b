import type { AppConfig } from '../infra/config.ts';
import { Prisma } from '../infra/db.ts';
import { conflict } from '../infra/errors.ts';
import type { Tx } from '../books/ledger.ts';
import { lockPackages, setStock, type LockedPackage } from '../payments/stock.ts';
import { createApproval, type AdminAudit, type ApprovalRow } from './requests.ts';

/**
 * Packages that create money. A package whose daily credit over its term is more than
 * its price times PACKAGE_CREDIT_MULTIPLE pays its buyer more than it costs: one admin
 * alone could put a $0.01 package paying $499 a day on sale and have throwaway accounts
 * buy it. Putting such a package on sale, or changing one on sale so that it gives more
 * (a lower price, more daily credit, a longer term, more stock) while its new terms
 * create money, waits for a second admin: held as a PACKAGE approval and applied once
 * approved. A change that gives less (a higher price, less stock), and a draft's edits
 * (a draft sells nothing), go through.
 */

export type PackageTerms = { price: Prisma.Decimal; dailyCredit: Prisma.Decimal; durationDays: number };
type TermsJson = { price: string; dailyCredit: string; durationDays: number };

/** What a PACKAGE approval holds: the terms once approved, those before (an edit), the stock added, the stock when asked. */
export type PackageChange = TermsJson & { name: string; publish: boolean; was: TermsJson | null; stockAdded: number | null; countInStock: number };

export const PACKAGE_CHANGED = 'The package changed since this was asked: reject it, and publish or edit it again.';

const termsJson = (t: PackageTerms): TermsJson => ({ price: t.price.toFixed(2), dailyCredit: t.dailyCredit.toFixed(2), durationDays: t.durationDays });
const termsOf = (t: TermsJson): PackageTerms => ({ price: new Prisma.Decimal(t.price), dailyCredit: new Prisma.Decimal(t.dailyCredit), durationDays: t.durationDays });

/** What one package pays its buyer over its term. */
export const creditOverTerm = (t: PackageTerms): Prisma.Decimal => t.dailyCredit.times(t.durationDays);

/**
 * What the approver is shown of a PACKAGE change's stock: the count when asked, the count
 * once approved (at most: orders may take some meanwhile) and what those units pay their
 * buyers in all over their term (USD, exact).
 */
export function packageStock(c: PackageChange): { countInStock: number; stockOnceApproved: number; stockPaysUsd: string } {
  const stockOnceApproved = Math.max(0, c.countInStock + (c.stockAdded ?? 0));
  return { countInStock: c.countInStock, stockOnceApproved, stockPaysUsd: creditOverTerm(termsOf(c)).times(stockOnceApproved).toFixed(2) };
}

/** Whether a package on these terms pays more over its term than its price times PACKAGE_CREDIT_MULTIPLE: selling it creates money. */
export function packageMints(config: Pick<AppConfig, 'packageCreditMultiple'>, t: PackageTerms): boolean {
  return creditOverTerm(t).gt(t.price.times(config.packageCreditMultiple));
}

/**
 * Inside an admin's edit, the package locked: when it is on sale and the edit gives more
 * while its new terms create money, its terms and stock change are held as an approval
 * (returned: the caller saves the rest of the edit only); otherwise null.
 */
export function holdPackageEdit(
  tx: Tx,
  config: Pick<AppConfig, 'packageCreditMultiple'>,
  audit: AdminAudit,
  current: LockedPackage,
  next: PackageTerms & { name: string; stockAdded: number },
): Promise<ApprovalRow> | null {
  if (current.publishedAt === null) return null;
  const givesMore = next.price.lt(current.price) || next.dailyCredit.gt(current.dailyCredit) || next.durationDays > current.durationDays || next.stockAdded > 0;
  if (!givesMore || !packageMints(config, next)) return null;
  const change: PackageChange = {
    name: next.name,
    publish: false,
    ...termsJson(next),
    was: termsJson(current),
    stockAdded: next.stockAdded === 0 ? null : next.stockAdded,
    countInStock: current.countInStock,
  };
  return createApproval(tx, audit, { kind: 'PACKAGE', subjectType: 'product', subjectId: current.id, beneficiaryId: null, amountUsd: creditOverTerm(next), change });
}

/**
 * Inside putting a draft on sale, the package locked: when it creates money, publishing
 * is held as an approval (the open one, when asked already) and returned; otherwise null.
 */
export async function holdPackagePublish(tx: Tx, config: Pick<AppConfig, 'packageCreditMultiple'>, audit: AdminAudit, current: LockedPackage): Promise<ApprovalRow | null> {
  if (current.publishedAt !== null || !packageMints(config, current)) return null;
  const open = await tx.approval.findFirst({ where: { kind: 'PACKAGE', subjectId: current.id, status: 'PENDING', change: { path: ['publish'], equals: true } } });
  if (open) return open;
  const change: PackageChange = { name: current.name, publish: true, ...termsJson(current), was: null, stockAdded: null, countInStock: current.countInStock };
  return createApproval(tx, audit, { kind: 'PACKAGE', subjectType: 'product', subjectId: current.id, beneficiaryId: null, amountUsd: creditOverTerm(current), change });
}

/**
 * Whether the package as it is now gives no more than when the change was asked: no lower
 * price, no more daily credit, no longer term, no more stock. The terms an edit leaves
 * alone stay as they are now, so once they moved the package after the change would not
 * be what the approver was shown (a cent's price, ten years, a million on sale, asked
 * while the package paid nothing; or a second held change asked on the same terms).
 */
function asSeen(current: LockedPackage, was: PackageTerms, stockWhenAsked: number): boolean {
  return current.price.gte(was.price) && current.dailyCredit.lte(was.dailyCredit) && current.durationDays <= was.durationDays && current.countInStock <= stockWhenAsked;
}

/**
 * An approved PACKAGE change, on the package as it is now: publishing needs the terms and
 * stock it was asked with; an edit needs each term it changes to be as it was when asked,
 * and no term or stock to have become more generous since (else a 409 to reject it: the
 * second admin approved other terms), and adds the stock it added to the count as it is
 * now (orders may have taken some meanwhile). The package after it is then, term by term
 * and in stock, at most what the approver was shown.
 */
export async function applyPackageChange(tx: Tx, a: ApprovalRow): Promise<void> {
  const current = (await lockPackages(tx, [a.subjectId])).get(a.subjectId);
  if (!current || current.deletedAt) throw conflict('This package was deleted: reject the request instead');
  const c = a.change as PackageChange;
  const asked = termsOf(c);
  if (c.publish) {
    const same = current.price.eq(asked.price) && current.dailyCredit.eq(asked.dailyCredit) && current.durationDays === asked.durationDays;
    if (!same || current.countInStock !== c.countInStock) throw conflict(PACKAGE_CHANGED);
    await tx.product.updateMany({ where: { id: current.id, publishedAt: null }, data: { publishedAt: new Date() } });
    return;
  }
  const was = termsOf(c.was as TermsJson);
  const data: Partial<PackageTerms> = {};
  if (!asked.price.eq(was.price)) data.price = asked.price;
  if (!asked.dailyCredit.eq(was.dailyCredit)) data.dailyCredit = asked.dailyCredit;
  if (asked.durationDays !== was.durationDays) data.durationDays = asked.durationDays;
  const moved = (data.price && !current.price.eq(was.price)) || (data.dailyCredit && !current.dailyCredit.eq(was.dailyCredit)) || (data.durationDays !== undefined && current.durationDays !== was.durationDays);
  if (moved || !asSeen(current, was, c.countInStock)) throw conflict(PACKAGE_CHANGED);
  if (Object.keys(data).length > 0) await tx.product.update({ where: { id: current.id }, data });
  if (c.stockAdded) await setStock(tx, current.id, { wanted: Math.max(0, current.countInStock + c.stockAdded), loaded: current.countInStock }, `approval:${a.id}`);
}
