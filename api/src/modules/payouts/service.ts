import { creditCents, overpaymentOf, overpaymentsOf, payoutApprovalStates, Prisma, refundWorth, soleSender, type AppConfig, type Db, type Overpayment } from '@shop/core';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';
import { formatAsset, formatEth, REFUND_STATUSES, type AssetCode, usdNumber, type OverpaidOrderJson, type OverpaymentJson, type PayoutCheckJson, type RefundJson } from '@shop/core/contract';

/** The JSON of refunds, payout checks and overpayments, for admins and for the buyer's order. */

type CheckRow = { txHash: string; status: 'CHECKING' | 'ACCEPTED' | 'REFUSED'; reason: string | null; fromAddress: string | null; createdAt: Date };

export function checkJson(c: CheckRow | undefined): PayoutCheckJson | null {
  return c ? { txHash: c.txHash, status: c.status, reason: c.reason, seen: c.fromAddress !== null, createdAt: c.createdAt.toISOString() } : null;
}

/** The latest check of each request, for lists. */
export const latestCheck = { orderBy: { createdAt: 'desc' }, take: 1 } satisfies Prisma.PayoutCheckFindManyArgs;

const refundInclude = { checks: latestCheck } satisfies Prisma.RefundInclude;

type RefundRow = Prisma.RefundGetPayload<{ include: typeof refundInclude }>;

/** The refunds `where` names (one request, or an order's few): not a list an admin pages. */
export async function refundsJson(db: Db, where: Prisma.RefundWhereInput, approvals?: ApprovalView): Promise<RefundJson[]> {
  return refundRowsJson(db, await db.refund.findMany({ where, include: refundInclude, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }), approvals);
}

/** For admins: the threshold, and today's price (null when none) to value refunds no order priced. */
export type ApprovalView = { config: Pick<AppConfig, 'approvalThresholdUsd'>; price: string | null };

export { REFUND_STATUSES };

/**
 * One page of the refund queue, newest first, optionally by status: a refund still
 * REQUESTED is found however old it is (status=REQUESTED; index Refund(status, createdAt, id)).
 */
export function refundsPage(db: Db, status: (typeof REFUND_STATUSES)[number][] | undefined, page: PageQuery): Promise<RefundRow[]> {
  return db.refund.findMany({
    where: { ...(status ? { status: { in: status } } : {}), ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.RefundWhereInput) },
    include: refundInclude,
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.RefundOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

export async function refundRowsJson(db: Db, rows: RefundRow[], approvals?: ApprovalView): Promise<RefundJson[]> {
  const [users, payments, holds, states] = await Promise.all([
    db.user.findMany({ where: { id: { in: rows.flatMap((r) => (r.userId ? [r.userId] : [])) } }, select: { id: true, name: true, email: true } }),
    db.payment.findMany({ where: { id: { in: rows.flatMap((r) => (r.paymentId ? [r.paymentId] : [])) } }, select: { id: true, txHash: true, source: true } }),
    db.payoutCheck.findMany({ where: { holds: true, refundId: { in: rows.map((r) => r.id) } }, select: { refundId: true, txHash: true } }),
    approvals ? payoutApprovalStates(db, approvals.config, rows.map((r) => ({ id: r.id, worth: refundWorth(r, approvals.price) }))) : null,
  ]);
  return rows.map((r): RefundJson => {
    const user = users.find((u) => u.id === r.userId);
    const payment = payments.find((p) => p.id === r.paymentId);
    return {
      _id: r.id,
      source: r.source,
      order: r.orderId,
      txHash: payment && payment.source !== 'INFLOW' ? payment.txHash : null,
      user: user ? { _id: user.id, name: user.name, email: user.email } : null,
      wallet: r.wallet,
      walletSource: r.walletSource as RefundJson['walletSource'],
      asset: r.asset,
      amount: r.amount.toFixed(0),
      amountText: formatAsset(r.asset, r.amount.toFixed(0)),
      amountWei: r.asset === 'ETH' ? r.amount.toFixed(0) : null,
      amountEth: r.asset === 'ETH' ? formatEth(r.amount.toFixed(0)) : null,
      amountUsd: r.amountUsd ? usdNumber(r.amountUsd) : null,
      status: r.status,
      payoutTxHash: r.payoutTxHash,
      check: checkJson(r.checks[0]),
      heldBy: holds.find((h) => h.refundId === r.id)?.txHash ?? null,
      ...(states ? { approval: states.get(r.id) } : {}),
      createdAt: r.createdAt.toISOString(),
      paidAt: r.paidAt?.toISOString() ?? null,
    };
  });
}

const usdOf = (cents: bigint) => Number(cents) / 100;

/** Today's price of an asset as a credit values it (Runtime.assetPrices.marketOrNull), null while none can be read. */
export type Valuation = (asset: AssetCode) => Promise<bigint | null>;

/** Each asset the overpayments' parts are in, priced once. */
async function pricesOf(overs: Overpayment[], valuation: Valuation): Promise<(asset: AssetCode) => bigint | null> {
  const answers = new Map<AssetCode, bigint | null>();
  for (const asset of new Set(overs.flatMap((o) => o.parts.map((p) => p.asset)))) answers.set(asset, await valuation(asset));
  return (asset) => answers.get(asset) ?? null;
}

function toOverpaymentJson(over: Overpayment, answerOf: (asset: AssetCode) => bigint | null): OverpaymentJson {
  const priced = over.parts.every((p) => answerOf(p.asset) !== null);
  return {
    usd: usdOf(over.cents),
    creditUsd: priced ? usdOf(creditCents(over, (asset) => answerOf(asset) as bigint)) : null,
    wei: over.wei.toString(),
    eth: formatEth(over.wei),
    from: soleSender(over),
    refundable: over.parts.some((p) => p.payer !== null),
    parts: over.parts.map((p) => ({
      txHash: p.txHash,
      from: p.payer,
      asset: p.asset,
      amount: p.amount.toString(),
      wei: p.asset === 'ETH' ? p.amount.toString() : null,
      eth: p.asset === 'ETH' ? formatEth(p.amount) : null,
      usd: usdOf(p.cents),
    })),
  };
}

export async function overpaymentJson(db: Db, orderId: string, valuation: Valuation): Promise<OverpaymentJson | null> {
  const over = await overpaymentOf(db, orderId);
  return over ? toOverpaymentJson(over, await pricesOf([over], valuation)) : null;
}

/**
 * One page of the paid orders with overpayment left to refund or credit, newest first
 * (a partial index holds only these: Order(createdAt, id) WHERE overpaid and unsettled).
 */
export function overpaidPage(db: Db, page: PageQuery) {
  return db.order.findMany({
    where: { status: 'PAID', overpaidUsd: { gt: db.order.fields.overpaidSettledUsd }, ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.OrderWhereInput) },
    include: { user: { select: { id: true, name: true, email: true } } },
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.OrderOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

/** Paid orders with overpayment left to refund or credit. */
export async function overpaidOrders(db: Db, orders: Awaited<ReturnType<typeof overpaidPage>>, valuation: Valuation): Promise<OverpaidOrderJson[]> {
  const overs = await overpaymentsOf(db, orders.map((o) => o.id));
  const answerOf = await pricesOf([...overs.values()], valuation);
  return orders.flatMap((o): OverpaidOrderJson[] => {
    const over = overs.get(o.id);
    if (!over) return [];
    return [
      {
        _id: o.id,
        user: { _id: o.user.id, name: o.user.name, email: o.user.email },
        totalPrice: usdNumber(o.totalPrice),
        paidUsd: usdNumber(o.paidUsd),
        overpayment: toOverpaymentJson(over, answerOf),
        paidAt: o.paidAt?.toISOString() ?? null,
      },
    ];
  });
}
