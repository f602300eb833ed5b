import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hash, type PublicClient } from 'viem';
import { cashoutEventData, payoutWallet } from './balances.ts';
import { isNodeFailure } from './chain/public-client.ts';
import type { Tracer } from './chain/trace.ts';
import type { AppConfig } from './config.ts';
import { centsToString, formatEth, toCents } from './contract/money.ts';
import { refundWalletMessage } from './contract/payouts.ts';
import { Prisma, type Db } from './db.ts';
import { conflict, forbidden, notFound, unavailable } from './errors.ts';
import { postEntries, type Tx } from './ledger.ts';
import { priceToAnswer } from './payments/amounts.ts';
import { indexerHalt } from './payments/indexer.ts';
import { refundTransfer } from './payments/settle.ts';
import { emitEvent } from './webhooks.ts';

/**
 * Money out: refunds (of an overpayment, of a transfer no order took) and the check of
 * every payout transaction an admin names for a cashout or a refund. A refund is valued
 * at the ETH the shop received (no exchange-rate gain or loss for either side); a payout
 * becomes PAID only when the worker has read its transaction on chain: succeeded, on the
 * shop's chain, delivering to the requested wallet the expected value within
 * PAYOUT_TOLERANCE_BPS, with PAYMENT_CONFIRMATIONS, and paying no other payout.
 */
type Deps = { db: Db; config: AppConfig; chain: PublicClient; tracer: Tracer };

/* ------------------------------------------------------------------ overpayments */

type Overpayment = { cents: bigint; wei: bigint; from: string | null; paymentId: string | null };

/**
 * What a paid order received beyond its total and has not refunded or credited yet, in
 * USD and in the ETH it arrived as. Counted transfers are taken in chain order: the one
 * that crossed the total overpaid by its ETH beyond what was still due at the price of
 * the quote that valued it (in proportion, for a late transfer valued at the day's
 * price); any later one overpaid by all of it. Part of it may be settled already: what is
 * left is in proportion.
 */
export async function overpaymentOf(db: Db | Tx, orderId: string): Promise<Overpayment | null> {
  const order = await db.order.findUnique({ where: { id: orderId }, select: { status: true, totalPrice: true, overpaidUsd: true, overpaidSettledUsd: true } });
  if (!order || order.status !== 'PAID') return null;
  const left = toCents(order.overpaidUsd.toFixed(2)) - toCents(order.overpaidSettledUsd.toFixed(2));
  if (left <= 0n) return null;
  const payments = await db.payment.findMany({
    where: { orderId, status: 'COUNTED' },
    orderBy: [{ blockNumber: 'asc' }, { createdAt: 'asc' }],
    select: { id: true, fromAddress: true, valueWei: true, usdValue: true, quoteId: true },
  });
  const quotes = await db.paymentQuote.findMany({ where: { id: { in: payments.flatMap((p) => (p.quoteId ? [p.quoteId] : [])) } }, select: { id: true, ethUsd: true } });
  let due = toCents(order.totalPrice.toFixed(2));
  let overCents = 0n;
  let overWei = 0n;
  let last: (typeof payments)[number] | null = null;
  for (const p of payments) {
    const cents = toCents((p.usdValue ?? new Prisma.Decimal(0)).toFixed(2));
    const wei = BigInt(p.valueWei?.toFixed(0) ?? '0');
    const used = cents < due ? cents : due;
    due -= used;
    if (cents <= used) continue;
    const quote = quotes.find((q) => q.id === p.quoteId);
    if (quote) {
      const answer = priceToAnswer(quote.ethUsd.toFixed(8));
      const usedWei = (used * 10n ** 24n + answer - 1n) / answer;
      overWei += wei > usedWei ? wei - usedWei : 0n;
    } else overWei += (wei * (cents - used)) / cents;
    overCents += cents - used;
    last = p;
  }
  if (overCents <= 0n) return null;
  const cents = left < overCents ? left : overCents;
  return { cents, wei: (overWei * cents) / overCents, from: last?.fromAddress ?? null, paymentId: last?.id ?? null };
}

async function lockPaidOrder(tx: Tx, orderId: string) {
  const rows = await tx.$queryRaw<{ id: string; userId: string; status: string }[]>`
    SELECT "id", "userId", "status" FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
  const order = rows[0];
  if (!order) throw notFound('Order not found');
  return order;
}

async function settleOverpayment(tx: Tx, orderId: string, cents: bigint): Promise<void> {
  await tx.order.update({ where: { id: orderId }, data: { overpaidSettledUsd: { increment: new Prisma.Decimal(centsToString(cents)) } } });
}

/**
 * A refund of what is left of an order's overpayment (an admin, or the buyer choosing
 * it): to the address that sent it, or the wallet an admin names.
 */
export async function refundOverpayment(
  db: Db,
  config: Pick<AppConfig, 'receivingAddress'>,
  input: { orderId: string; actorId: string; buyerId?: string; wallet?: string },
): Promise<{ refundId: string }> {
  return db.$transaction(async (tx) => {
    const order = await lockPaidOrder(tx, input.orderId);
    if (input.buyerId && order.userId !== input.buyerId) throw notFound('Order not found');
    const over = await overpaymentOf(tx, order.id);
    if (!over) throw conflict('This order has no overpayment left to refund');
    const wallet = input.wallet ? payoutWallet(config, input.wallet) : over.from;
    if (!wallet) throw conflict('The address that sent the overpayment is unknown: name the wallet to refund');
    const refund = await tx.refund.create({
      data: {
        source: 'OVERPAYMENT',
        orderId: order.id,
        paymentId: over.paymentId,
        userId: order.userId,
        wallet,
        walletSource: input.wallet ? 'admin' : 'sender',
        amountWei: new Prisma.Decimal(over.wei.toString()),
        amountUsd: new Prisma.Decimal(centsToString(over.cents)),
        requestedById: input.actorId,
      },
    });
    await settleOverpayment(tx, order.id, over.cents);
    return { refundId: refund.id };
  });
}

/** The buyer turns what is left of an order's overpayment into active balance (USD it was valued at). */
export async function creditOverpayment(db: Db, input: { orderId: string; userId: string }): Promise<{ credited: string }> {
  return db.$transaction(async (tx) => {
    const order = await lockPaidOrder(tx, input.orderId);
    if (order.userId !== input.userId) throw notFound('Order not found');
    const over = await overpaymentOf(tx, order.id);
    if (!over) throw conflict('This order has no overpayment left to add to your balance');
    const settled = await tx.order.findUniqueOrThrow({ where: { id: order.id }, select: { overpaidSettledUsd: true } });
    const amount = centsToString(over.cents);
    await postEntries(tx, [
      {
        userId: order.userId,
        account: 'ACTIVE',
        amount,
        kind: 'OVERPAYMENT_CREDIT',
        reference: `order:${order.id}`,
        idempotencyKey: `overpayment-credit:${order.id}:${settled.overpaidSettledUsd.toFixed(2)}`,
      },
    ]);
    await settleOverpayment(tx, order.id, over.cents);
    return { credited: amount };
  });
}

/* ------------------------------------------------------------------ transfer refunds */

/**
 * An admin refunds a transfer no order took (UNRESOLVED, LATE, or ETH no transaction
 * explains): to its sender unless a wallet is named. An inflow is recorded as soon as its
 * block is indexed: it can be refunded once the block has its confirmations.
 */
export async function refundPayment(
  deps: Pick<Deps, 'db' | 'chain' | 'config'>,
  input: { paymentId: string; actorId: string; wallet?: string },
): Promise<{ refundId: string }> {
  const { db, chain, config } = deps;
  const payment = await db.payment.findUnique({ where: { id: input.paymentId }, select: { source: true, blockNumber: true } });
  if (payment?.source === 'INFLOW' && payment.blockNumber !== null) {
    const confirmations = Number((await chain.getBlockNumber({ cacheTime: 0 })) - payment.blockNumber + 1n);
    if (confirmations < config.paymentConfirmations) {
      throw conflict(`Its block has ${confirmations} of ${config.paymentConfirmations} confirmations: refund it once the block is final`);
    }
  }
  const wallet = input.wallet ? payoutWallet(config, input.wallet) : undefined;
  const outcome = await refundTransfer(db, { paymentId: input.paymentId, wallet, actorId: input.actorId });
  if (outcome === 'missing') throw notFound('Payment not found');
  if (outcome === 'not-refundable') throw conflict('Only unresolved or late transfers can be refunded');
  if (outcome === 'no-wallet') throw conflict('No transaction shows who sent this ETH: name the wallet to refund');
  return outcome;
}

/**
 * The address that sent the refunded ETH names another wallet for its refund, with a
 * signature (EIP-191, or ERC-1271 for a contract wallet) over refundWalletMessage. Only
 * while the refund is unpaid and no payout is being checked for it.
 */
export async function changeRefundWallet(
  deps: Pick<Deps, 'db' | 'chain' | 'config'>,
  input: { refundId: string; wallet: string; signature: `0x${string}` },
): Promise<void> {
  const { db, chain, config } = deps;
  const refund = await db.refund.findUnique({ where: { id: input.refundId } });
  if (!refund) throw notFound('Refund not found');
  const payment = refund.paymentId ? await db.payment.findUnique({ where: { id: refund.paymentId }, select: { fromAddress: true } }) : null;
  const signer = payment?.fromAddress;
  if (!signer) throw conflict('No address sent this ETH that could sign for its refund');
  const wallet = payoutWallet(config, input.wallet);
  const valid = await chain
    .verifyMessage({ address: signer as `0x${string}`, message: refundWalletMessage(refund.id, wallet), signature: input.signature })
    .catch((err: unknown) => {
      if (isNodeFailure(err)) throw unavailable('The signature could not be checked: the Ethereum node did not answer. Try again in a moment');
      return false;
    });
  if (!valid) throw forbidden(`The signature is not from the address that sent this ETH (${signer})`);
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Refund" WHERE "id" = ${refund.id}::uuid FOR UPDATE`;
    if (await tx.payoutCheck.count({ where: { refundId: refund.id, status: { in: ['CHECKING', 'ACCEPTED'] } } })) {
      throw conflict('This refund is being paid: its wallet can no longer change');
    }
    const changed = await tx.refund.updateMany({ where: { id: refund.id, status: 'REQUESTED' }, data: { wallet, walletSource: 'claim' } });
    if (changed.count !== 1) throw conflict('This refund was paid already');
  });
}

/* ------------------------------------------------------------------ payout checks */

export type PayoutTarget = { kind: 'cashout' | 'refund'; id: string };

/** wei a USD amount buys at a feed price (8 decimals), rounded down: what a cashout sends. */
function usdToWei(usd: Prisma.Decimal, price: string): bigint {
  return (toCents(usd.toFixed(2)) * 10n ** 24n) / priceToAnswer(price);
}

/**
 * An admin says the payout was sent in `txHash`: a check is recorded for the worker, and
 * the request stays open until it accepts it. Refused here (409): a request already
 * paid or rejected, one whose previous hash is still being checked, a hash that pays
 * another payout or is a payment to the shop.
 */
export async function requestPayoutCheck(
  deps: Pick<Deps, 'db'> & { currentPrice: () => Promise<string> },
  input: PayoutTarget & { txHash: string; actorId: string },
): Promise<{ checkId: string }> {
  const { db } = deps;
  const txHash = input.txHash.toLowerCase();
  if (await db.payment.findUnique({ where: { txHash }, select: { id: true } })) {
    throw conflict('This transaction is a payment to the shop, not a payout');
  }
  const cashout = input.kind === 'cashout' ? await db.cashoutRequest.findUnique({ where: { id: input.id } }) : null;
  // A cashout requested while no price could be read is valued at today's price.
  const price = cashout && !cashout.ethUsd ? await deps.currentPrice() : undefined;
  try {
    return await db.$transaction(async (tx) => {
      let wallet: string;
      let expectedWei: bigint;
      if (input.kind === 'cashout') {
        await tx.$queryRaw`SELECT "id" FROM "CashoutRequest" WHERE "id" = ${input.id}::uuid FOR UPDATE`;
        const c = await tx.cashoutRequest.findUnique({ where: { id: input.id } });
        if (!c) throw notFound('Cashout request not found');
        if (c.status !== 'REQUESTED' && c.status !== 'NOTIFIED') throw conflict('This cashout request is already settled');
        wallet = c.wallet;
        expectedWei = usdToWei(c.amountUsd, c.ethUsd?.toFixed(8) ?? (price as string));
      } else {
        await tx.$queryRaw`SELECT "id" FROM "Refund" WHERE "id" = ${input.id}::uuid FOR UPDATE`;
        const r = await tx.refund.findUnique({ where: { id: input.id } });
        if (!r) throw notFound('Refund not found');
        if (r.status !== 'REQUESTED') throw conflict('This refund is already paid');
        wallet = r.wallet;
        expectedWei = BigInt(r.amountWei.toFixed(0));
      }
      const target = input.kind === 'cashout' ? { cashoutId: input.id } : { refundId: input.id };
      if (await tx.payoutCheck.count({ where: { ...target, status: 'CHECKING' } })) {
        throw conflict('A payout transaction is being checked for this request: wait for its verdict');
      }
      const check = await tx.payoutCheck.create({
        data: { ...target, txHash, wallet, expectedWei: new Prisma.Decimal(expectedWei.toString()), requestedById: input.actorId, reason: 'Waiting for the worker to read it' },
      });
      return { checkId: check.id };
    });
  } catch (err) {
    // The partial unique index: another payout's check holds this hash.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw conflict('This transaction already pays another payout');
    throw err;
  }
}

export type PayoutVerdict =
  | { state: 'skipped' }
  | { state: 'wait'; reason: string }
  | { state: 'refused'; reason: string }
  | { state: 'accepted'; target: PayoutTarget; notify: boolean };

/** The payout's value against what is due, within the tolerance. */
function valueReason(sent: bigint, expected: bigint, bps: number): string | null {
  const low = (expected * BigInt(10_000 - bps)) / 10_000n;
  const high = (expected * BigInt(10_000 + bps)) / 10_000n;
  const tolerance = `${(bps / 100).toFixed(2)}% tolerance`;
  if (sent < low) return `It sent ${formatEth(sent)} ETH, short of the ${formatEth(expected)} ETH due (${tolerance})`;
  if (sent > high) return `It sent ${formatEth(sent)} ETH, more than the ${formatEth(expected)} ETH due (${tolerance}): an admin must settle the difference by hand`;
  return null;
}

/** Reads a check's transaction and decides; an accepted check pays its request in the same transaction. */
export async function verifyPayout(deps: Deps, checkId: string, now = new Date()): Promise<PayoutVerdict> {
  const { db, chain, config, tracer } = deps;
  const check = await db.payoutCheck.findUnique({ where: { id: checkId } });
  if (!check || check.status !== 'CHECKING') return { state: 'skipped' };
  const refuse = async (reason: string): Promise<PayoutVerdict> => {
    await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { status: 'REFUSED', reason } });
    return { state: 'refused', reason };
  };
  const wait = async (reason: string): Promise<PayoutVerdict> => {
    const waited = now.getTime() - check.createdAt.getTime();
    if (waited > config.payoutGiveUpMinutes * 60_000) return refuse(`${reason} after ${config.payoutGiveUpMinutes} minutes: check the hash, then mark the payout paid again`);
    await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { reason } });
    return { state: 'wait', reason };
  };
  const halt = await indexerHalt(db);
  if (halt) return { state: 'wait', reason: `Verification is halted: ${halt.reason}` };
  const hash = check.txHash as Hash;
  const tx = await chain.getTransaction({ hash }).catch((err: unknown) => {
    if (err instanceof TransactionNotFoundError) return null;
    throw err;
  });
  if (!tx) return wait('Transaction not found on chain');
  const receipt = await chain.getTransactionReceipt({ hash }).catch((err: unknown) => {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw err;
  });
  if (!receipt) return wait('Not mined yet');
  if (tx.chainId !== undefined && tx.chainId !== config.chainId) return refuse(`Not a transaction of this chain (chain id ${tx.chainId})`);
  if (receipt.status !== 'success') return refuse('The transaction failed (reverted) on chain');
  const wallet = check.wallet.toLowerCase();
  let sent: bigint;
  if (tx.to?.toLowerCase() === wallet) sent = tx.value;
  else {
    // Through a contract (a multisig's payout): what did it pass on to the wallet?
    const delivered = await tracer.transaction(hash, wallet);
    if (delivered === null) return refuse(`Sent to ${tx.to ?? 'a new contract'}, not the requested wallet ${check.wallet}, and the node cannot trace what it passed on`);
    if (delivered.valueWei === 0n) return refuse(`It sent nothing to the requested wallet ${check.wallet} (it went to ${tx.to ?? 'a new contract'})`);
    sent = delivered.valueWei;
  }
  const short = valueReason(sent, BigInt(check.expectedWei.toFixed(0)), config.payoutToleranceBps);
  if (short) return refuse(short);
  const [head, block] = await Promise.all([chain.getBlockNumber({ cacheTime: 0 }), chain.getBlock({ blockNumber: receipt.blockNumber })]);
  const confirmations = Number(head - receipt.blockNumber + 1n);
  if (confirmations < config.paymentConfirmations) return wait(`It has ${confirmations} of ${config.paymentConfirmations} confirmations`);
  if (block.hash !== receipt.blockHash) return wait('Its block is being reorganized');
  return acceptPayout(db, check.id, now);
}

/** The check pays its request: both change in one transaction with the event, or neither. */
async function acceptPayout(db: Db, checkId: string, now: Date): Promise<PayoutVerdict> {
  return db.$transaction(async (tx) => {
    const check = await tx.payoutCheck.findUniqueOrThrow({ where: { id: checkId } });
    const target: PayoutTarget = check.cashoutId ? { kind: 'cashout', id: check.cashoutId } : { kind: 'refund', id: check.refundId as string };
    const table = Prisma.raw(target.kind === 'cashout' ? '"CashoutRequest"' : '"Refund"');
    await tx.$queryRaw`SELECT "id" FROM ${table} WHERE "id" = ${target.id}::uuid FOR UPDATE`;
    const claimed = await tx.payoutCheck.updateMany({ where: { id: checkId, status: 'CHECKING' }, data: { status: 'ACCEPTED', reason: null } });
    if (claimed.count !== 1) return { state: 'skipped' } as const;
    const paid = { status: 'PAID' as const, payoutTxHash: check.txHash, paidAt: now };
    if (target.kind === 'cashout') {
      const changed = await tx.cashoutRequest.updateMany({ where: { id: target.id, status: { in: ['REQUESTED', 'NOTIFIED'] } }, data: paid });
      if (changed.count !== 1) throw new Error(`cashout ${target.id} is not open: its check cannot be accepted`);
      const cashout = await tx.cashoutRequest.findUniqueOrThrow({ where: { id: target.id } });
      await emitEvent(tx, 'cashout.paid', `cashout:${cashout.id}`, { cashout: cashoutEventData(cashout) }, now);
      return { state: 'accepted', target, notify: true } as const;
    }
    const changed = await tx.refund.updateMany({ where: { id: target.id, status: 'REQUESTED' }, data: paid });
    if (changed.count !== 1) throw new Error(`refund ${target.id} is not open: its check cannot be accepted`);
    const refund = await tx.refund.findUniqueOrThrow({ where: { id: target.id } });
    if (refund.source === 'TRANSFER' && refund.paymentId) {
      await tx.payment.update({ where: { id: refund.paymentId }, data: { reason: `Refunded in ${check.txHash}` } });
    }
    await emitEvent(tx, 'refund.paid', refund.orderId ? `order:${refund.orderId}` : `refund:${refund.id}`, { refund: refundEventData(refund) }, now);
    return { state: 'accepted', target, notify: refund.userId !== null } as const;
  });
}

export function refundEventData(r: {
  id: string;
  source: string;
  orderId: string | null;
  paymentId: string | null;
  userId: string | null;
  wallet: string;
  amountWei: Prisma.Decimal;
  amountUsd: Prisma.Decimal | null;
  status: string;
  payoutTxHash: string | null;
}) {
  return {
    id: r.id,
    source: r.source,
    orderId: r.orderId,
    paymentId: r.paymentId,
    userId: r.userId,
    wallet: r.wallet,
    amountWei: r.amountWei.toFixed(0),
    amountUsd: r.amountUsd?.toFixed(2) ?? null,
    status: r.status,
    payoutTxHash: r.payoutTxHash,
  };
}

/** Checks still waiting (for the sweeper: one whose job was lost is queued again). */
export async function checkingPayouts(db: Db): Promise<string[]> {
  const rows = await db.payoutCheck.findMany({ where: { status: 'CHECKING' }, select: { id: true }, take: 500 });
  return rows.map((r) => r.id);
}
