import type { AppConfig } from '../infra/config.ts';
import { assetDecimals } from '../contract/tokens.ts';
import { Prisma, type Asset, type Db } from '../infra/db.ts';
import { notFound } from '../infra/errors.ts';
import type { Tx } from '../books/ledger.ts';
import type { PayoutTarget } from '../infra/queues.ts';

/** What a payout is worth against APPROVAL_THRESHOLD_USD, and whether that needs a second admin. */

export const usd = (d: Prisma.Decimal) => `$${d.toFixed(2)}`;

export function threshold(config: Pick<AppConfig, 'approvalThresholdUsd'>): Prisma.Decimal {
  return new Prisma.Decimal(config.approvalThresholdUsd);
}

/** A payout's worth in USD for this rule: null when it cannot be valued now (no price), which counts as large. */
export type PayoutWorth = Prisma.Decimal | null;

/** Whether a payout of this worth needs a second admin. */
export function payoutNeedsApproval(config: Pick<AppConfig, 'approvalThresholdUsd'>, worth: PayoutWorth): boolean {
  return worth === null || worth.gt(threshold(config));
}

export const sameWallet = (a: string | null, b: string) => a === null || a.toLowerCase() === b.toLowerCase();

/**
 * What a cashout or refund is worth: a cashout its USD amount; a refund the USD value
 * the shop received for it, or (a transfer no order priced) its ETH at today's price.
 * `counted` is what the threshold is held against: for a cashout, with the same user's
 * other cashouts of the 24 hours before it (a balance cashed out in small pieces is
 * counted together); for a refund, its worth.
 */
export async function payoutWorth(
  tx: Tx | Db,
  target: PayoutTarget,
  currentPrice?: () => Promise<string>,
): Promise<{ worth: PayoutWorth; counted: PayoutWorth; beneficiaryId: string | null; open: boolean; wallet: string; createdById: string | null }> {
  if (target.kind === 'cashout') {
    const c = await tx.cashoutRequest.findUnique({ where: { id: target.id }, select: { amountUsd: true, userId: true, status: true, wallet: true } });
    if (!c) throw notFound('Cashout request not found');
    const counted = (await cashoutsCounted(tx, [target.id])).get(target.id) ?? c.amountUsd;
    return { worth: c.amountUsd, counted, beneficiaryId: c.userId, open: c.status === 'REQUESTED' || c.status === 'NOTIFIED', wallet: c.wallet, createdById: null };
  }
  const r = await tx.refund.findUnique({ where: { id: target.id }, select: { amountUsd: true, asset: true, amount: true, userId: true, status: true, wallet: true, requestedById: true } });
  if (!r) throw notFound('Refund not found');
  const price = r.amountUsd === null && currentPrice ? await currentPrice().catch(() => null) : null;
  const worth = refundWorth(r, price);
  return { worth, counted: worth, beneficiaryId: r.userId, open: r.status === 'REQUESTED', wallet: r.wallet, createdById: r.requestedById };
}

/**
 * Each cashout's amount with its user's other cashouts (not rejected) requested in the 24
 * hours before it: one query for a page (index CashoutRequest(userId)).
 */
export async function cashoutsCounted(tx: Tx | Db, ids: string[]): Promise<Map<string, Prisma.Decimal>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ id: string; counted: Prisma.Decimal }[]>`
    SELECT c."id", c."amountUsd" + COALESCE((
      SELECT SUM(o."amountUsd") FROM "CashoutRequest" o
      WHERE o."userId" = c."userId" AND o."id" <> c."id" AND o."status" <> 'REJECTED'
        AND o."createdAt" <= c."createdAt" AND o."createdAt" > c."createdAt" - interval '24 hours'
    ), 0) AS "counted"
    FROM "CashoutRequest" c WHERE c."id" = ANY(${ids}::uuid[])`;
  return new Map(rows.map((r) => [r.id, new Prisma.Decimal(r.counted)]));
}

/**
 * A refund's worth: the USD the shop received for it; else a stablecoin at a dollar a token
 * (what the shop values one at, at most: rounded up), or its ETH at `price` (the ETH price,
 * rounded up); else null (cannot be valued).
 */
export function refundWorth(r: { amountUsd: Prisma.Decimal | null; asset: Asset; amount: Prisma.Decimal }, price: string | null): PayoutWorth {
  if (r.amountUsd !== null) return r.amountUsd;
  if (r.asset !== 'ETH') return r.amount.div(new Prisma.Decimal(10).pow(assetDecimals(r.asset))).toDecimalPlaces(2, Prisma.Decimal.ROUND_UP);
  return price && r.asset === 'ETH' ? r.amount.div('1e18').mul(price).toDecimalPlaces(2, Prisma.Decimal.ROUND_UP) : null;
}
