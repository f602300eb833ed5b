import type { Hash } from 'viem';
import { cashoutEventData, OPEN_CASHOUT_STATUSES } from '../books/balances.ts';
import { indexerHalt } from '../chain/cursor.ts';
import { notFinalReason, readTransaction, transactionOrNull } from '../chain/transfer-reader.ts';
import { formatEth } from '../contract/money.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { PayoutTarget } from '../infra/queues.ts';
import { emitEvent } from '../events/webhooks.ts';
import { paymentRail } from '../rails/index.ts';
import { followReplacement, nonceUsedElsewhere, replacementOf } from './replacement.ts';
import type { CheckRow, Deps, PayoutVerdict, Sender } from './types.ts';

/**
 * What a request's payout must deliver, and where it may go: `walletsAt(block)` the
 * wallets a payout mined in that block pays. A cashout's wallet; a refund's wallet now
 * (the one the admin was shown) and any it had before a signed change, each only for a
 * payout mined in the head block read when the change was made or earlier (ETH sent there
 * later is not the refund's). A refund a second admin approved paying is paid only by ETH
 * that reached the wallet that approval names. `wallets`: every wallet it had (whether a
 * replaced payout went straight to one of them).
 */
async function payoutTarget(db: Db, check: { cashoutId: string | null; refundId: string | null; wallet: string }) {
  if (check.cashoutId) {
    const c = await db.cashoutRequest.findUniqueOrThrow({ where: { id: check.cashoutId }, select: { createdAt: true } });
    // Lower-cased like a refund's: a wallet is stored as typed (EIP-55 mixed case), addresses are compared in lower case.
    const wallets = [check.wallet.toLowerCase()];
    return { requestedAt: c.createdAt, wallets, walletsAt: (_block: bigint) => wallets };
  }
  const refundId = check.refundId as string;
  const r = await db.refund.findUniqueOrThrow({ where: { id: refundId }, select: { createdAt: true, wallet: true, formerWallets: true, formerWalletsUntilBlock: true } });
  const approvals = await db.approval.findMany({ where: { kind: 'PAYOUT', subjectId: refundId, status: 'APPROVED' }, select: { wallet: true } });
  const approved = approvals.some((a) => a.wallet === null) ? [] : approvals.map((a) => (a.wallet as string).toLowerCase());
  const lower = (ws: string[]) => [...new Set(ws.map((w) => w.toLowerCase()))];
  // A former wallet with no block recorded (left before blocks were kept) pays nothing.
  const former = r.formerWallets.map((wallet, i) => ({ wallet, until: r.formerWalletsUntilBlock[i] ?? -1n }));
  return {
    requestedAt: r.createdAt,
    wallets: lower([check.wallet, r.wallet, ...r.formerWallets]),
    walletsAt: (block: bigint) =>
      lower([check.wallet, r.wallet, ...former.filter((f) => block <= f.until).map((f) => f.wallet)]).filter((w) => approved.length === 0 || approved.includes(w)),
  };
}

/** A transaction mined this long before its request was made cannot be its payout (clocks differ). */
const REQUEST_SLACK_MS = 60_000;

/**
 * Reads a check's transaction and decides. A transaction the shop was told about is
 * watched until it is settled one way or the other, because until then the ETH may still
 * leave (its request can be neither rejected nor paid again meanwhile: the check stays
 * CHECKING):
 * - waiting in the mempool, or gone from it after the node showed it once: watched until
 *   it is mined, or until its sender's nonce is used by another transaction in a final
 *   block. Its sender and nonce are kept the first time it is seen;
 * - mined: it waits for its confirmations, then is verified: it refuses a revert, another
 *   chain, one mined before the request, one not sent by the shop's payout addresses
 *   (PAYOUT_ADDRESSES), one that delivered nothing to the request's wallet, and a short
 *   one (what it delivered is kept: the next payout only needs to bring the rest).
 *   Delivering at least the expected value less PAYOUT_TOLERANCE_BPS pays the request
 *   (more is noted, not refused). A transfer through a contract the node cannot trace
 *   is watched until a node that can trace answers;
 * - never seen by the node at all (not pending, not mined): watched (less often after
 *   PAYOUT_GIVE_UP_MINUTES) until an admin withdraws it (withdrawPayoutCheck): nothing
 *   proves that a transaction nobody has seen will never be mined.
 * - replaced (its nonce used by another transaction, a wallet's speed-up or cancel): the
 *   replacement is checked for the request in its place (followReplacement).
 * A node that fails is asked again (the job retries, the sweeper queues it again): a
 * failure never refuses a check.
 */
export async function verifyPayout(deps: Deps, checkId: string, now = new Date()): Promise<PayoutVerdict> {
  const check = await deps.db.payoutCheck.findUnique({ where: { id: checkId } });
  if (!check || check.status !== 'CHECKING') return { state: 'skipped' };
  return readPayout(deps, check, now);
}

type Delivered = { wei: bigint; blockNumber: bigint; blockHash: string };

/** How a check's verdict is written: refused (with what it delivered, if anything), or waiting with its reason. */
function verdictsFor(deps: Deps, check: CheckRow, now: Date) {
  const { db, config } = deps;
  const longWait = now.getTime() - check.createdAt.getTime() > config.payoutGiveUpMinutes * 60_000;
  const retryInMs = longWait ? Math.max(config.payoutRecheckMs, 5 * 60_000) : config.payoutRecheckMs;
  return {
    longWait,
    async refuse(reason: string, delivered?: Delivered): Promise<PayoutVerdict> {
      await db.payoutCheck.updateMany({
        where: { id: check.id, status: 'CHECKING' },
        data: {
          status: 'REFUSED',
          reason,
          ...(delivered ? { deliveredAmount: new Prisma.Decimal(delivered.wei.toString()), blockNumber: delivered.blockNumber, blockHash: delivered.blockHash } : {}),
        },
      });
      return { state: 'refused', reason, effects: [] };
    },
    async wait(reason: string): Promise<PayoutVerdict> {
      await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { reason } });
      return { state: 'wait', reason, retryInMs };
    },
  };
}
type Verdicts = ReturnType<typeof verdictsFor>;

async function readPayout(deps: Deps, check: CheckRow, now: Date): Promise<PayoutVerdict> {
  const { db, chain, config } = deps;
  const v = verdictsFor(deps, check, now);
  const halt = await indexerHalt(db, config.chainId);
  if (halt) return { state: 'wait', reason: `Verification is halted: ${halt.reason}`, retryInMs: config.payoutRecheckMs };
  const hash = check.txHash as Hash;
  const seen: Sender | null = check.fromAddress !== null && check.nonce !== null ? { fromAddress: check.fromAddress, nonce: check.nonce } : null;
  /** Its nonce used by another transaction: that one is checked in its place; while it cannot be found, this one waits. */
  const replaced = async (s: Sender, final: bigint, row: CheckRow = check): Promise<PayoutVerdict> => {
    const replacement = await replacementOf(deps, s, final);
    if (!replacement) {
      return v.wait(
        `Its nonce ${s.nonce} was used by another transaction of ${s.fromAddress} that the node cannot find (an archive node can): watched until it is found, or until an admin who found it withdraws this hash`,
      );
    }
    return followReplacement(db, row, s, replacement, (await payoutTarget(db, row)).wallets);
  };
  // First sight: the sender and nonce are kept as soon as the node shows the transaction,
  // before anything else is asked (a read failing after it must not lose them: without
  // them nothing proves a vanished transaction can no longer be mined).
  const first = seen ? null : await transactionOrNull(chain, hash);
  const known: Sender | null = seen ?? (first ? { fromAddress: first.from.toLowerCase(), nonce: BigInt(first.nonce) } : null);
  if (first && known) await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { ...known, toAddress: first.to?.toLowerCase() ?? null } });
  const current = { ...check, toAddress: check.toAddress ?? first?.to?.toLowerCase() ?? null };
  const reading = await readTransaction(chain, hash);
  if (reading.state === 'unknown') {
    if (known) {
      const final = await nonceUsedElsewhere(deps, hash, known);
      if (final !== null) return replaced(known, final, current);
      return v.wait('No longer in the node\'s mempool: watched until it is mined, or its nonce is used by another transaction');
    }
    // Never shown by the node, pending or mined: its sender and nonce are unknown, so
    // nothing proves it cannot be mined later. It is watched until an admin withdraws it
    // (a mistyped hash: withdrawPayoutCheck).
    if (v.longWait) return v.wait(`The node has never seen this transaction in ${config.payoutGiveUpMinutes} minutes: if the hash is wrong, withdraw it and mark the right one paid`);
    return v.wait('Transaction not found on chain');
  }
  if (reading.state !== 'mined') {
    // (Shown only now, between two reads: its sender is kept at the next look.)
    const final = known ? await nonceUsedElsewhere(deps, hash, known) : null;
    if (known && final !== null) return replaced(known, final, current);
    return v.wait('Not mined yet: watched until it is mined, or its nonce is used by another transaction');
  }
  const { tx } = reading;
  if (tx.chainId !== undefined && tx.chainId !== config.chainId) return v.refuse(`Not a transaction of this chain (chain id ${tx.chainId})`);
  if (!tx.success) return v.refuse('The transaction failed (reverted) on chain');
  const target = await payoutTarget(db, check);
  if (tx.blockTimestamp.getTime() < target.requestedAt.getTime() - REQUEST_SLACK_MS) {
    return v.refuse('It was mined before this payout was requested: it cannot be its payout');
  }
  // Confirmed first: what it delivered is read (and traced) once, from a final block.
  const notFinal = notFinalReason(tx, config.paymentConfirmations);
  if (notFinal) return v.wait(notFinal);
  const delivered = await deliveredToWallet(deps, check, { hash, from: tx.from, to: tx.to, value: tx.valueWei }, target.walletsAt(tx.blockNumber));
  if ('verdict' in delivered) return delivered.verdict(v);
  return judgeAmount(deps, check, { wei: delivered.sent, blockNumber: tx.blockNumber, blockHash: tx.blockHash }, v, now);
}

/**
 * What the transaction delivered to the request's wallets and how much of it the shop
 * sent: sent by one of its payout addresses, or through a contract (its multisig) whose
 * call from one of them delivered it. Or the verdict when it delivered nothing there,
 * was not the shop's, or cannot be traced.
 */
async function deliveredToWallet(
  deps: Deps,
  check: CheckRow,
  tx: { hash: Hash; from: string; to: string | null; value: bigint },
  wallets: string[],
): Promise<{ sent: bigint } | { verdict: (v: Verdicts) => Promise<PayoutVerdict> }> {
  const fromShop = (address: string) => deps.config.payoutAddresses.includes(address.toLowerCase());
  const delivered = await paymentRail(deps, check.asset).payoutDelivery(tx, wallets, fromShop);
  if (delivered === null) {
    return {
      verdict: (v) =>
        v.wait(`Sent to ${tx.to ?? 'a new contract'}, not the requested wallet ${check.wallet}, and the node cannot trace what it passed on: watched until a node that can trace answers (an archive node)`),
    };
  }
  const direct = tx.to !== null && wallets.includes(tx.to.toLowerCase());
  if (!direct && delivered.toWallet === 0n) return { verdict: (v) => v.refuse(`It sent nothing to the requested wallet ${check.wallet} (it went to ${tx.to ?? 'a new contract'})`) };
  if (delivered.sent === 0n) return { verdict: (v) => v.refuse("It was not sent from one of the shop's payout addresses (PAYOUT_ADDRESSES): it is not the shop's payout") };
  return { sent: delivered.sent };
}

/**
 * With the earlier short payouts of this request (confirmed to its wallet: this one
 * brings the rest), the payout delivered at least what is due less PAYOUT_TOLERANCE_BPS:
 * accepted (more is noted, not refused); short: refused, what it delivered kept.
 */
async function judgeAmount(deps: Deps, check: CheckRow, delivered: Delivered, v: Verdicts, now: Date): Promise<PayoutVerdict> {
  const { db, config } = deps;
  const earlier = await db.payoutCheck.findMany({
    where: { id: { not: check.id }, deliveredAmount: { gt: 0 }, status: 'REFUSED', ...(check.cashoutId ? { cashoutId: check.cashoutId } : { refundId: check.refundId }) },
    select: { deliveredAmount: true },
  });
  const before = earlier.reduce((sum, c) => sum + BigInt(c.deliveredAmount?.toFixed(0) ?? '0'), 0n);
  const expected = BigInt(check.expectedAmount.toFixed(0));
  const low = (expected * BigInt(10_000 - config.payoutToleranceBps)) / 10_000n;
  const high = (expected * BigInt(10_000 + config.payoutToleranceBps)) / 10_000n;
  const sent = delivered.wei;
  const total = sent + before;
  const sum = before > 0n ? ` (${formatEth(total)} ETH with the earlier payouts of this request)` : '';
  if (total < low) {
    return v.refuse(
      `It sent ${formatEth(sent)} ETH${sum}, short of the ${formatEth(expected)} ETH due (${(config.payoutToleranceBps / 100).toFixed(2)}% tolerance): send the rest and mark that transaction paid`,
      delivered,
    );
  }
  const note = total > high ? `It sent ${formatEth(total)} ETH, more than the ${formatEth(expected)} ETH due: the difference is the shop's loss` : null;
  return acceptPayout(db, check.id, delivered, note, now);
}

/** The check pays its request: both change in one transaction with the event, or neither. */
async function acceptPayout(db: Db, checkId: string, delivered: Delivered, note: string | null, now: Date): Promise<PayoutVerdict> {
  return db.$transaction(async (tx) => {
    const check = await tx.payoutCheck.findUniqueOrThrow({ where: { id: checkId } });
    const target: PayoutTarget = check.cashoutId ? { kind: 'cashout', id: check.cashoutId } : { kind: 'refund', id: check.refundId as string };
    const table = Prisma.raw(target.kind === 'cashout' ? '"CashoutRequest"' : '"Refund"');
    await tx.$queryRaw`SELECT "id" FROM ${table} WHERE "id" = ${target.id}::uuid FOR UPDATE`;
    const claimed = await tx.payoutCheck.updateMany({
      where: { id: checkId, status: 'CHECKING' },
      data: { status: 'ACCEPTED', reason: note, deliveredAmount: new Prisma.Decimal(delivered.wei.toString()), blockNumber: delivered.blockNumber, blockHash: delivered.blockHash },
    });
    if (claimed.count !== 1) return { state: 'skipped' } as const;
    const paid = { status: 'PAID' as const, payoutTxHash: check.txHash, paidAt: now };
    if (target.kind === 'cashout') {
      const changed = await tx.cashoutRequest.updateMany({ where: { id: target.id, status: { in: [...OPEN_CASHOUT_STATUSES] } }, data: paid });
      if (changed.count !== 1) throw new Error(`cashout ${target.id} is not open: its check cannot be accepted`);
      const cashout = await tx.cashoutRequest.findUniqueOrThrow({ where: { id: target.id } });
      await emitEvent(tx, 'cashout.paid', `cashout:${cashout.id}`, { cashout: cashoutEventData(cashout) }, now);
      return { state: 'accepted', target, effects: [{ kind: 'payout-notice', target }] } as const;
    }
    const open = await tx.refund.findUniqueOrThrow({ where: { id: target.id }, select: { orderId: true } });
    // The order's events are numbered under its lock, as settlement numbers them: in order.
    if (open.orderId) await tx.$queryRaw`SELECT "id" FROM "Order" WHERE "id" = ${open.orderId}::uuid FOR UPDATE`;
    const changed = await tx.refund.updateMany({ where: { id: target.id, status: 'REQUESTED' }, data: paid });
    if (changed.count !== 1) throw new Error(`refund ${target.id} is not open: its check cannot be accepted`);
    const refund = await tx.refund.findUniqueOrThrow({ where: { id: target.id } });
    if (refund.source === 'TRANSFER' && refund.paymentId) {
      await tx.payment.update({ where: { id: refund.paymentId }, data: { reason: `Refunded in ${check.txHash}` } });
    }
    await emitEvent(tx, 'refund.paid', refund.orderId ? `order:${refund.orderId}` : `refund:${refund.id}`, { refund: refundEventData(refund) }, now);
    return { state: 'accepted', target, effects: refund.userId !== null ? [{ kind: 'payout-notice', target }] : [] } as const;
  });
}

function refundEventData(r: {
  id: string;
  source: string;
  orderId: string | null;
  paymentId: string | null;
  userId: string | null;
  wallet: string;
  asset: string;
  amount: Prisma.Decimal;
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
    // Kept for the webhook's existing readers: the amount in wei when the refund is ETH.
    amountWei: r.asset === 'ETH' ? r.amount.toFixed(0) : null,
    asset: r.asset,
    amount: r.amount.toFixed(0),
    amountUsd: r.amountUsd?.toFixed(2) ?? null,
    status: r.status,
    payoutTxHash: r.payoutTxHash,
  };
}

