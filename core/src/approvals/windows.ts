import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import { APPROVAL_WINDOW_MS } from './requests.ts';
import { threshold, usd } from './worth.ts';

/**
 * Cashouts counted together over 24 hours beyond their own user's (worth.ts), so that
 * many small cashouts cannot move a large sum past one admin:
 * - per admin: the cashouts an admin marked paid in the last 24 hours without a second
 *   admin (no approved approval), with the one they are paying now;
 * - per package: the cashouts marked paid in the last 24 hours (by anyone, approved or
 *   not) whose money came from one package's daily credit, with this one's part.
 * Past APPROVAL_THRESHOLD_USD, the next cashout waits for a second admin.
 *
 * Where a cashout's money came from: a cashout takes its user's whole active balance, so
 * its part from a package is the package's credit not yet attributed: the daily credit
 * that package's items posted to the user up to this cashout, less the parts from it
 * recorded for the user's earlier cashouts whose money left (not rejected or cancelled:
 * credit given back is counted again when cashed out anew), at most the cashout's amount.
 * Daily credit entries name their item in their key (`daily:<item>:<day>`, daily-credit.ts).
 * It is recorded (CashoutSource) when an admin first marks the cashout paid. An earlier
 * cashout not yet marked paid has no parts recorded: its credit is counted for this one
 * too (never less than the truth), as is credit exchanged to the passive balance.
 */

/** A cashout's part from one package's daily credit. */
export type CashoutShare = { productId: string; name: string; amountUsd: Prisma.Decimal };

/**
 * Each cashout's parts by package, in one query for a page of cashouts. The page's
 * cashouts by primary key, one probe per id (an `= ANY(array)` of 50 ids was planned as a
 * sequential scan of all cashouts on the two-year shop). Reads each user's
 * daily credit up to this cashout (x_ledger_user_statement (userId, createdAt, id)),
 * summed per item, their items by primary key, and their earlier cashouts by
 * CashoutRequest(userId) with those cashouts' recorded parts by CashoutSource(cashoutId,
 * productId).
 */
export async function cashoutShares(tx: Tx | Db, ids: string[]): Promise<Map<string, CashoutShare[]>> {
  const shares = new Map<string, CashoutShare[]>();
  if (ids.length === 0) return shares;
  // Summed per item first (an item's id is in its credit's key), then per package: one
  // lookup of an item and its package per item, not per day of credit.
  const rows = await tx.$queryRaw<{ cashoutId: string; productId: string; name: string; amountUsd: Prisma.Decimal }[]>`
    WITH credit AS (
      SELECT c."id" AS "cashoutId", c."userId", c."createdAt" AS "at", c."amountUsd" AS "cap", substr(l."idempotencyKey", 7, 36) AS "item", SUM(l."amount") AS "amount"
      FROM "CashoutRequest" c
      JOIN "LedgerEntry" l ON l."userId" = c."userId" AND l."createdAt" <= c."createdAt"
        AND l."kind" = 'DAILY_CREDIT' AND l."account" = 'ACTIVE' AND l."amount" > 0 AND l."idempotencyKey" LIKE 'daily:%'
      WHERE c."id" IN (SELECT unnest(${ids}::uuid[]))
      GROUP BY 1, 2, 3, 4, 5
    ), by_package AS (
      SELECT cr."cashoutId", cr."userId", cr."at", cr."cap", i."productId", SUM(cr."amount") AS "credit"
      FROM credit cr
      JOIN "OrderItem" i ON i."id" = (CASE WHEN cr."item" ~ '^[0-9a-f-]{36}$' THEN cr."item"::uuid END)
      GROUP BY 1, 2, 3, 4, 5
    )
    SELECT bp."cashoutId"::text AS "cashoutId", bp."productId"::text AS "productId", p."name", LEAST(bp."credit" - COALESCE(taken."amount", 0), bp."cap") AS "amountUsd"
    FROM by_package bp
    JOIN "Product" p ON p."id" = bp."productId"
    CROSS JOIN LATERAL (
      SELECT SUM(s."amountUsd") AS "amount" FROM "CashoutRequest" o
      JOIN "CashoutSource" s ON s."cashoutId" = o."id" AND s."productId" = bp."productId"
      WHERE o."userId" = bp."userId" AND o."createdAt" < bp."at" AND o."status" NOT IN ('REJECTED', 'CANCELLED')
    ) taken
    WHERE bp."credit" - COALESCE(taken."amount", 0) > 0`;
  for (const r of rows) {
    const list = shares.get(r.cashoutId) ?? [];
    list.push({ productId: r.productId, name: r.name, amountUsd: new Prisma.Decimal(r.amountUsd) });
    shares.set(r.cashoutId, list);
  }
  return shares;
}

type Counted = { cashoutId: string; amountUsd: Prisma.Decimal };

/**
 * The cashouts `adminId` marked paid in the 24 hours before `now` without a second admin:
 * a check of theirs that is being read, accepted, or refused after delivering something
 * (a hash withdrawn as never sent does not count), on a cashout no approval was approved
 * for. PayoutCheck(requestedById, createdAt): one admin's day of payouts.
 */
async function paidAlone(tx: Tx | Db, adminId: string, now: Date): Promise<Counted[]> {
  const since = new Date(now.getTime() - APPROVAL_WINDOW_MS);
  return tx.$queryRaw<Counted[]>`
    SELECT c."id"::text AS "cashoutId", c."amountUsd" FROM "CashoutRequest" c
    WHERE c."id" IN (
      SELECT pc."cashoutId" FROM "PayoutCheck" pc
      WHERE pc."requestedById" = ${adminId}::uuid AND pc."createdAt" > ${since} AND pc."cashoutId" IS NOT NULL
        AND (pc."status" <> 'REFUSED' OR pc."deliveredAmount" > 0))
    AND NOT EXISTS (SELECT 1 FROM "Approval" a WHERE a."subjectId" = c."id" AND a."kind" = 'PAYOUT' AND a."status" = 'APPROVED')`;
}

/** What left each of `productIds`' daily credit through cashouts first marked paid in the 24 hours before `now` (CashoutSource(productId, createdAt)). */
async function paidFromPackages(tx: Tx | Db, productIds: string[], now: Date): Promise<(Counted & { productId: string })[]> {
  if (productIds.length === 0) return [];
  const since = new Date(now.getTime() - APPROVAL_WINDOW_MS);
  return tx.$queryRaw<(Counted & { productId: string })[]>`
    SELECT "cashoutId"::text AS "cashoutId", "productId"::text AS "productId", "amountUsd" FROM "CashoutSource"
    WHERE "productId" = ANY(${productIds}::uuid[]) AND "createdAt" > ${since}`;
}

const sum = (rows: Counted[], except: string) => rows.filter((r) => r.cashoutId !== except).reduce((total, r) => total.plus(r.amountUsd), new Prisma.Decimal(0));

/**
 * Why paying each cashout (its amount, its parts by package) now would take an admin's or
 * a package's 24 hours past the threshold: the text after "This payout", or null.
 */
function judge(
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  cashout: { id: string; amountUsd: Prisma.Decimal; shares: CashoutShare[] },
  alone: Counted[],
  fromPackages: (Counted & { productId: string })[],
): string | null {
  const limit = threshold(config);
  const byAdmin = sum(alone, cashout.id).plus(cashout.amountUsd);
  if (byAdmin.gt(limit)) return `(with the cashouts you paid without a second admin in the last 24 hours) is worth ${usd(byAdmin)}`;
  for (const share of cashout.shares) {
    const byPackage = sum(fromPackages.filter((r) => r.productId === share.productId), cashout.id).plus(share.amountUsd);
    if (byPackage.gt(limit)) return `(with the cashouts of the last 24 hours paid from the daily credit of '${share.name}') is worth ${usd(byPackage)}`;
  }
  return null;
}

/**
 * The 24-hour windows of a cashout about to be marked paid by `payerId` (inside that
 * transaction, the cashout locked): `over` says why it needs a second admin, or null;
 * `record` writes where its money came from, counted from now on. With `lock`, one admin's
 * payouts and one package's are counted one at a time (transaction advisory locks, the
 * admin's first, then the packages' in id order): two payouts marked at once cannot each
 * find the window without the other.
 */
export async function cashoutWindows(
  tx: Tx,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  input: { cashoutId: string; payerId: string; now?: Date; lock?: boolean },
): Promise<{ over: string | null; record: () => Promise<void> }> {
  const now = input.now ?? new Date();
  const c = await tx.cashoutRequest.findUniqueOrThrow({ where: { id: input.cashoutId }, select: { id: true, amountUsd: true } });
  const shares = (await cashoutShares(tx, [c.id])).get(c.id) ?? [];
  const productIds = shares.map((s) => s.productId).sort();
  if (input.lock) {
    for (const key of [`payout-window:admin:${input.payerId}`, ...productIds.map((id) => `payout-window:package:${id}`)]) {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))::text`;
    }
  }
  const over = judge(config, { ...c, shares }, await paidAlone(tx, input.payerId, now), await paidFromPackages(tx, productIds, now));
  const record = async () => {
    if (shares.length === 0) return;
    await tx.cashoutSource.createMany({ data: shares.map((s) => ({ cashoutId: c.id, productId: s.productId, amountUsd: s.amountUsd, createdAt: now })), skipDuplicates: true });
  };
  return { over, record };
}

/** For the cashouts list: which of a page's cashouts the viewing admin would need a second admin for, by the 24-hour windows (three queries for the page). */
export async function cashoutsOverWindows(db: Db, config: Pick<AppConfig, 'approvalThresholdUsd'>, viewerId: string, cashouts: { id: string; amountUsd: Prisma.Decimal }[]): Promise<Set<string>> {
  const over = new Set<string>();
  if (cashouts.length === 0) return over;
  const now = new Date();
  const shares = await cashoutShares(db, cashouts.map((c) => c.id));
  const productIds = [...new Set([...shares.values()].flat().map((s) => s.productId))];
  const [alone, fromPackages] = await Promise.all([paidAlone(db, viewerId, now), paidFromPackages(db, productIds, now)]);
  for (const c of cashouts) if (judge(config, { ...c, shares: shares.get(c.id) ?? [] }, alone, fromPackages)) over.add(c.id);
  return over;
}
