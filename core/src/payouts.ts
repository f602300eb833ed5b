import type { Hash, PublicClient } from 'viem';
import { payoutWorth, requirePayoutApproval, voidPayoutApprovals } from './approvals.ts';
import { cashoutEventData, OPEN_CASHOUT_STATUSES, payoutWallet } from './balances.ts';
import { requireSignature } from './chain/signatures.ts';
import { isMethodUnsupported, isStateUnavailable } from './chain/errors.ts';
import type { Tracer } from './chain/trace.ts';
import { confirmationsAt, notFinalReason, receiptOrNull, transactionOrNull } from './chain/transfer-reader.ts';
import type { AppConfig } from './config.ts';
import { formatEth, toCents } from './contract/money.ts';
import { refundWalletMessage } from './contract/wallet.ts';
import { Prisma, type Db } from './db.ts';
import { conflict, notFound } from './errors.ts';
import { payoutHold } from './payout-hold.ts';
import { priceToAnswer, usdCentsToWei } from './payments/amounts.ts';
import { indexerHalt } from './chain/cursor.ts';
import { refundTransfer } from './payments/settle.ts';
import type { PayoutTarget } from './queues.ts';
import { emitEvent } from './webhooks.ts';

/**
 * Money out: refunds of a transfer no order took (an overpayment's: payments/overpayment.ts)
 * and the check of every payout transaction an admin names for a cashout or a refund. A refund is valued
 * at the ETH the shop received (no exchange-rate gain or loss for either side); a payout
 * becomes PAID only when the worker has read its transaction on chain: succeeded, on the
 * shop's chain, delivering to the requested wallet the expected value within
 * PAYOUT_TOLERANCE_BPS, with PAYMENT_CONFIRMATIONS, and paying no other payout.
 */
type Deps = { db: Db; config: AppConfig; chain: PublicClient; tracer: Tracer };

/* ------------------------------------------------------------------ transfer refunds */

/**
 * An admin refunds a transfer no order took (UNRESOLVED, LATE, or ETH no transaction
 * explains): to its sender unless a wallet is named. An inflow is recorded as soon as its
 * block is indexed: it can be refunded once the block has its confirmations.
 */
export async function refundPayment(
  deps: Pick<Deps, 'db' | 'chain' | 'config'>,
  input: { paymentId: string; actorId: string; wallet?: string },
  afterCreate?: Parameters<typeof refundTransfer>[2],
): Promise<{ refundId: string }> {
  const { db, chain, config } = deps;
  const payment = await db.payment.findUnique({ where: { id: input.paymentId }, select: { source: true, blockNumber: true } });
  if (payment?.source === 'INFLOW' && payment.blockNumber !== null) {
    const confirmations = confirmationsAt(await chain.getBlockNumber({ cacheTime: 0 }), payment.blockNumber);
    if (confirmations < config.paymentConfirmations) {
      throw conflict(`Its block has ${confirmations} of ${config.paymentConfirmations} confirmations: refund it once the block is final`);
    }
  }
  const wallet = input.wallet ? payoutWallet(config, input.wallet) : undefined;
  const outcome = await refundTransfer(db, { paymentId: input.paymentId, wallet, actorId: input.actorId }, afterCreate);
  if (outcome === 'missing') throw notFound('Payment not found');
  if (outcome === 'explained') throw conflict('This ETH turned out to be a transfer through a contract, found by tracing its block: see that transfer');
  if (outcome === 'not-refundable') throw conflict('Only unresolved or late transfers can be refunded');
  if (outcome === 'no-sender') throw conflict('No transaction shows who sent this ETH: name the wallet to refund');
  if (outcome === 'no-single-payer') throw conflict('No single address sent this ETH: name the wallet to refund');
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
  const payment = refund.paymentId ? await db.payment.findUnique({ where: { id: refund.paymentId }, select: { payerAddress: true } }) : null;
  const signer = payment?.payerAddress;
  if (!signer) throw conflict('No address sent this ETH that could sign for its refund');
  const wallet = payoutWallet(config, input.wallet);
  await requireSignature(chain, {
    address: signer,
    message: refundWalletMessage(refund.id, wallet),
    signature: input.signature,
    refusal: `The signature is not from the address that sent this ETH (${signer})`,
  });
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Refund" WHERE "id" = ${refund.id}::uuid FOR UPDATE`;
    // Once a payout was given for it (even one refused, that may have delivered), the
    // wallet stays: the ETH may be on its way there already.
    if (await tx.payoutCheck.count({ where: { refundId: refund.id, OR: [{ status: { in: ['CHECKING', 'ACCEPTED'] } }, { deliveredWei: { gt: 0 } }, { holds: true }] } })) {
      throw conflict('This refund is being paid: its wallet can no longer change');
    }
    const current = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
    if (current.status !== 'REQUESTED') throw conflict('This refund was paid already');
    if (current.wallet.toLowerCase() === wallet.toLowerCase()) return;
    // A payout the admin sent to the former wallet before it changed still pays it.
    await tx.refund.update({ where: { id: refund.id }, data: { wallet, walletSource: 'claim', formerWallets: { push: current.wallet } } });
    // An approval was for the former wallet: a large refund is asked for again.
    await voidPayoutApprovals(tx, refund.id);
  });
}

/* ------------------------------------------------------------------ payout checks */


/**
 * An admin says the payout was sent in `txHash`: a check is recorded for the worker, and
 * the request stays open until it accepts it. Refused here (409): a request already
 * paid or rejected, a large one no second admin approved, one whose previous hash is still being checked, a hash that pays
 * another payout.
 */
export async function requestPayoutCheck(
  deps: Pick<Deps, 'db'> & { config: Pick<AppConfig, 'approvalThresholdUsd'>; currentPrice: () => Promise<string> },
  input: PayoutTarget & { txHash: string; actorId: string },
): Promise<{ checkId: string }> {
  const { db } = deps;
  // A hash someone reported as a payment (anyone can report any hash) is no reason to
  // refuse it: what the chain says decides (sent by a payout address, to the wallet).
  const txHash = input.txHash.toLowerCase();
  const cashout = input.kind === 'cashout' ? await db.cashoutRequest.findUnique({ where: { id: input.id } }) : null;
  // A cashout requested while no price could be read is valued at today's price.
  const price = cashout && !cashout.ethUsd ? await deps.currentPrice() : undefined;
  // A refund of a transfer no order priced is valued (for the approval rule) at today's price, read before the row is locked.
  const refund = input.kind === 'refund' ? await db.refund.findUnique({ where: { id: input.id }, select: { amountUsd: true } }) : null;
  const refundPrice = refund && refund.amountUsd === null ? await deps.currentPrice().catch(() => null) : null;
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
        expectedWei = usdCentsToWei(toCents(c.amountUsd.toFixed(2)), priceToAnswer(c.ethUsd?.toFixed(8) ?? (price as string)));
      } else {
        await tx.$queryRaw`SELECT "id" FROM "Refund" WHERE "id" = ${input.id}::uuid FOR UPDATE`;
        const r = await tx.refund.findUnique({ where: { id: input.id } });
        if (!r) throw notFound('Refund not found');
        if (r.status !== 'REQUESTED') throw conflict('This refund is already paid');
        wallet = r.wallet;
        expectedWei = BigInt(r.amountWei.toFixed(0));
      }
      const target = input.kind === 'cashout' ? { cashoutId: input.id } : { refundId: input.id };
      const hold = await payoutHold(tx, input);
      if (hold) throw conflict(hold);
      // A large payout is sent only once a second admin approved it (approvals.ts).
      const { counted } = await payoutWorth(tx, input, async () => refundPrice ?? Promise.reject(new Error('no price')));
      await requirePayoutApproval(tx, deps.config, input, counted, wallet);
      const check = await tx.payoutCheck.create({
        data: { ...target, txHash, wallet, expectedWei: new Prisma.Decimal(expectedWei.toString()), requestedById: input.actorId, reason: 'Waiting for the worker to read it' },
      });
      return { checkId: check.id };
    });
  } catch (err) {
    // The partial unique index: another payout's check holds this hash.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw conflict('This transaction already pays a payout (or part of one)');
    throw err;
  }
}

/**
 * An admin withdraws what holds a request's payout: the hash being checked, when it is
 * one the node has never shown, pending or mined (a mistyped hash, one of another chain:
 * asked of the node again now), or one whose nonce another transaction used that the node
 * cannot find (the admin found it); or the hold of a replaced payout sent through a
 * contract (the admin saw that its operation can no longer run). A transaction the node
 * has seen and that may still be mined cannot be withdrawn, only replaced in the sending
 * wallet (the same nonce), which the check follows. Withdrawing is the admin's statement
 * that the payout will never arrive: the request can then be rejected or paid again.
 */
export async function withdrawPayoutCheck(deps: Pick<Deps, 'db' | 'chain' | 'config'>, target: PayoutTarget): Promise<void> {
  const { db, chain } = deps;
  const where = target.kind === 'cashout' ? { cashoutId: target.id } : { refundId: target.id };
  const check = await db.payoutCheck.findFirst({ where: { ...where, status: 'CHECKING' } });
  if (!check) {
    const held = await db.payoutCheck.findFirst({ where: { ...where, holds: true } });
    if (!held) throw conflict('No payout transaction is being checked or held for this request');
    await db.payoutCheck.updateMany({ where: { id: held.id, holds: true }, data: { holds: false, reason: `${held.reason ?? ''} (hold withdrawn by an admin)`.slice(0, 500) } });
    return;
  }
  const tx = check.fromAddress
    ? { from: check.fromAddress, nonce: check.nonce as bigint }
    : await transactionOrNull(chain, check.txHash as Hash);
  let reason = 'Withdrawn by an admin: the node never showed this transaction';
  if (tx) {
    const sender = { fromAddress: tx.from.toLowerCase(), nonce: BigInt(tx.nonce) };
    if ((await nonceUsedElsewhere(deps, check.txHash as Hash, sender)) === null) {
      throw conflict(
        `The node has seen this transaction (nonce ${tx.nonce} of ${sender.fromAddress}): it may still be mined, so it cannot be withdrawn. To cancel it, replace it in the sending wallet (the same nonce): the shop follows the replacement`,
      );
    }
    reason = `Withdrawn by an admin: its nonce ${sender.nonce} was used by another transaction of ${sender.fromAddress}`;
  }
  const withdrawn = await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING', fromAddress: check.fromAddress }, data: { status: 'REFUSED', reason } });
  if (withdrawn.count !== 1) throw conflict('This check changed meanwhile: reload and try again');
}

export type PayoutVerdict =
  | { state: 'skipped' }
  /** `retryInMs`: when to read it again (every PAYOUT_RECHECK_MS, every 5 minutes once it has waited PAYOUT_GIVE_UP_MINUTES). */
  | { state: 'wait'; reason: string; retryInMs: number }
  /** `next`: the check that follows the transaction that replaced this one (same sender and nonce), to be read now. */
  | { state: 'refused'; reason: string; next?: string }
  | { state: 'accepted'; target: PayoutTarget; notify: boolean };

/** What a request's payout must deliver, and where it may go. */
async function payoutTarget(db: Db, check: { cashoutId: string | null; refundId: string | null; wallet: string }) {
  if (check.cashoutId) {
    const c = await db.cashoutRequest.findUniqueOrThrow({ where: { id: check.cashoutId }, select: { createdAt: true } });
    // Lower-cased like a refund's: a wallet is stored as typed (EIP-55 mixed case), addresses are compared in lower case.
    return { requestedAt: c.createdAt, wallets: [check.wallet.toLowerCase()] };
  }
  const r = await db.refund.findUniqueOrThrow({ where: { id: check.refundId as string }, select: { createdAt: true, wallet: true, formerWallets: true } });
  // The wallet the admin was shown, the refund's wallet now, and any it had before a signed change.
  return { requestedAt: r.createdAt, wallets: [...new Set([check.wallet, r.wallet, ...r.formerWallets].map((w) => w.toLowerCase()))] };
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

type CheckRow = NonNullable<Awaited<ReturnType<Db['payoutCheck']['findUnique']>>>;

type Sender = { fromAddress: string; nonce: bigint };

/** How far back the block that used a replaced transaction's nonce is looked for: by nonce counts, and block by block where the node lacks that state. */
const REPLACEMENT_SEARCH_BLOCKS = 100_000n;
const REPLACEMENT_SCAN_BLOCKS = 256n;

/**
 * Whether the transaction with this sender and nonce can never be mined: the sender's
 * nonce is used in a final block (PAYMENT_CONFIRMATIONS deep), this one having no
 * receipt (read again after the nonce, so one mined meanwhile is not taken for dropped).
 * Returns the final block it was checked at, or null while it may still be mined.
 */
async function nonceUsedElsewhere(deps: Pick<Deps, 'chain' | 'config'>, hash: Hash, sender: Sender): Promise<bigint | null> {
  const { chain, config } = deps;
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  const final = head - BigInt(config.paymentConfirmations - 1);
  if (final < 0n) return null;
  const used = await chain.getTransactionCount({ address: sender.fromAddress as `0x${string}`, blockNumber: final });
  if (BigInt(used) <= sender.nonce) return null;
  const receipt = await receiptOrNull(chain, hash);
  return receipt === null ? final : null;
}

/**
 * The transaction that used the sender's nonce in place of `hash` (a wallet's "speed
 * up" pays the same wallet under another hash; its "cancel" sends nothing): the first
 * block whose state shows the nonce used is found by its nonce count (an exponential
 * then binary search, on a node that keeps that state), then the transaction in it.
 * Null when the node cannot say (a pruned node for old blocks).
 */
async function replacementOf(deps: Deps, sender: Sender, final: bigint): Promise<Hash | null> {
  const { chain } = deps;
  const address = sender.fromAddress as `0x${string}`;
  const usedAt = async (block: bigint) => BigInt(await chain.getTransactionCount({ address, blockNumber: block })) > sender.nonce;
  try {
    // The nonce is used at `final`; find a block where it was not yet.
    let step = 16n;
    let low = final - step;
    while (low > 0n && (await usedAt(low))) {
      if (step > REPLACEMENT_SEARCH_BLOCKS) return null;
      step *= 2n;
      low = final - step;
    }
    if (low < 0n) low = 0n;
    let high = final; // used at high, not at low
    while (high - low > 1n) {
      const mid = (low + high) / 2n;
      if (await usedAt(mid)) high = mid;
      else low = mid;
    }
    return await inBlock(high);
  } catch (err) {
    if (!isStateUnavailable(err)) throw err;
    // A node without that state: the blocks themselves (no state needed), newest first.
    for (let n = final; n >= 0n && final - n < REPLACEMENT_SCAN_BLOCKS; n--) {
      const found = await inBlock(n);
      if (found) return found;
    }
    return null;
  }

  async function inBlock(number: bigint): Promise<Hash | null> {
    const block = await chain.getBlock({ blockNumber: number, includeTransactions: true });
    const tx = block.transactions.find((t) => t.from.toLowerCase() === sender.fromAddress && BigInt(t.nonce) === sender.nonce);
    return tx ? (tx.hash.toLowerCase() as Hash) : null;
  }
}

/**
 * A payout transaction that will never be mined because another one took its nonce: the
 * replacement is checked for the same request in its place, in one transaction with the
 * refusal of the first, so a speed-up that paid the wallet pays the request and the
 * request is never left open for a second payout while the first one's ETH went out
 * under another hash. A replacement being checked for another request (an admin gave it
 * there) is waited for; one that paid another request leaves this one. A first payout
 * sent through a contract (a multisig) carried an operation that another transaction may
 * still execute: its request stays held (`holds`) until an admin withdraws the hold.
 */
async function followReplacement(db: Db, check: CheckRow, sender: Sender, replacement: Hash, wallets: string[]): Promise<PayoutVerdict> {
  const holds = check.toAddress !== null && !wallets.includes(check.toAddress);
  const held = holds ? `; it was sent through a contract (${check.toAddress}), whose operation another transaction may still execute: the request stays held until an admin withdraws the hold` : '';
  const replacedBy = `Replaced by ${replacement} (nonce ${sender.nonce} of ${sender.fromAddress})`;
  const refuse = async (reason: string, next?: string): Promise<PayoutVerdict> => {
    const refused = await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { status: 'REFUSED', reason, holds } });
    return refused.count === 1 ? { state: 'refused', reason, ...(next ? { next } : {}) } : { state: 'skipped' };
  };
  const holder = await db.payoutCheck.findFirst({ where: { txHash: replacement, OR: [{ status: { in: ['CHECKING', 'ACCEPTED'] } }, { deliveredWei: { gt: 0 } }] } });
  if (holder) {
    const sameRequest = holder.cashoutId === check.cashoutId && holder.refundId === check.refundId;
    if (sameRequest) return refuse(`${replacedBy}, which is checked for this request already${held}`);
    if (holder.status === 'CHECKING') {
      const reason = `${replacedBy}, which is being checked for another request: this one waits for its verdict`;
      await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { reason } });
      return { state: 'wait', reason, retryInMs: 60_000 };
    }
    return refuse(`${replacedBy}, which paid another request${held}`);
  }
  try {
    return await db.$transaction(async (tx) => {
      const reason = `${replacedBy}: that transaction is checked as this payout instead${held}`;
      const refused = await tx.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { status: 'REFUSED', reason, holds } });
      if (refused.count !== 1) return { state: 'skipped' } as const;
      const next = await tx.payoutCheck.create({
        data: {
          txHash: replacement,
          cashoutId: check.cashoutId,
          refundId: check.refundId,
          wallet: check.wallet,
          expectedWei: check.expectedWei,
          requestedById: check.requestedById,
          fromAddress: sender.fromAddress,
          nonce: sender.nonce,
          reason: `Replaces ${check.txHash} (the same nonce)`,
        },
      });
      return { state: 'refused', reason, next: next.id } as const;
    });
  } catch (err) {
    // Given for another request meanwhile: read again on the next run.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') return { state: 'wait', reason: `${replacedBy}, which was just given for another request`, retryInMs: 5_000 };
    throw err;
  }
}

async function readPayout(deps: Deps, check: CheckRow, now: Date): Promise<PayoutVerdict> {
  const { db, chain, config, tracer } = deps;
  const refuse = async (reason: string, delivered?: { wei: bigint; blockNumber: bigint; blockHash: string }): Promise<PayoutVerdict> => {
    await db.payoutCheck.updateMany({
      where: { id: check.id, status: 'CHECKING' },
      data: {
        status: 'REFUSED',
        reason,
        ...(delivered ? { deliveredWei: new Prisma.Decimal(delivered.wei.toString()), blockNumber: delivered.blockNumber, blockHash: delivered.blockHash } : {}),
      },
    });
    return { state: 'refused', reason };
  };
  const longWait = now.getTime() - check.createdAt.getTime() > config.payoutGiveUpMinutes * 60_000;
  const retryInMs = longWait ? Math.max(config.payoutRecheckMs, 5 * 60_000) : config.payoutRecheckMs;
  const wait = async (reason: string): Promise<PayoutVerdict> => {
    await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { reason } });
    return { state: 'wait', reason, retryInMs };
  };
  const halt = await indexerHalt(db);
  if (halt) return { state: 'wait', reason: `Verification is halted: ${halt.reason}`, retryInMs: config.payoutRecheckMs };
  const hash = check.txHash as Hash;
  const seen: Sender | null = check.fromAddress !== null && check.nonce !== null ? { fromAddress: check.fromAddress, nonce: check.nonce } : null;
  /** Its nonce used by another transaction: that one is checked in its place; while it cannot be found, this one waits. */
  const replaced = async (s: Sender, final: bigint, row: CheckRow = check): Promise<PayoutVerdict> => {
    const replacement = await replacementOf(deps, s, final);
    if (!replacement) {
      return wait(
        `Its nonce ${s.nonce} was used by another transaction of ${s.fromAddress} that the node cannot find (an archive node can): watched until it is found, or until an admin who found it withdraws this hash`,
      );
    }
    return followReplacement(db, row, s, replacement, (await payoutTarget(db, row)).wallets);
  };
  const tx = await transactionOrNull(chain, hash);
  if (!tx) {
    if (seen) {
      const final = await nonceUsedElsewhere(deps, hash, seen);
      if (final !== null) return replaced(seen, final);
      return wait('No longer in the node\'s mempool: watched until it is mined, or its nonce is used by another transaction');
    }
    // Never shown by the node, pending or mined: its sender and nonce are unknown, so
    // nothing proves it cannot be mined later. It is watched until an admin withdraws it
    // (a mistyped hash: withdrawPayoutCheck).
    if (longWait) return wait(`The node has never seen this transaction in ${config.payoutGiveUpMinutes} minutes: if the hash is wrong, withdraw it and mark the right one paid`);
    return wait('Transaction not found on chain');
  }
  const sender = { fromAddress: tx.from.toLowerCase(), nonce: BigInt(tx.nonce) };
  if (!seen) await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING' }, data: { ...sender, toAddress: tx.to?.toLowerCase() ?? null } });
  const current = { ...check, toAddress: check.toAddress ?? tx.to?.toLowerCase() ?? null };
  const receipt = await receiptOrNull(chain, hash);
  if (!receipt) {
    const final = await nonceUsedElsewhere(deps, hash, sender);
    if (final !== null) return replaced(sender, final, current);
    return wait('Not mined yet: watched until it is mined, or its nonce is used by another transaction');
  }
  if (tx.chainId !== undefined && tx.chainId !== config.chainId) return refuse(`Not a transaction of this chain (chain id ${tx.chainId})`);
  if (receipt.status !== 'success') return refuse('The transaction failed (reverted) on chain');
  const target = await payoutTarget(db, check);
  const [head, block] = await Promise.all([chain.getBlockNumber({ cacheTime: 0 }), chain.getBlock({ blockNumber: receipt.blockNumber })]);
  if (Number(block.timestamp) * 1000 < target.requestedAt.getTime() - REQUEST_SLACK_MS) {
    return refuse('It was mined before this payout was requested: it cannot be its payout');
  }
  // Confirmed first: what it delivered is read (and traced) once, from a final block.
  const notFinal = notFinalReason({ confirmations: confirmationsAt(head, receipt.blockNumber), canonical: block.hash === receipt.blockHash }, config.paymentConfirmations);
  if (notFinal) return wait(notFinal);
  // The shop's payout: sent by one of its payout addresses, or through a contract (its
  // multisig) whose call from one of them delivered it.
  const payoutFrom = (address: string) => config.payoutAddresses.includes(address.toLowerCase());
  const signedByShop = payoutFrom(tx.from);
  let sent = 0n;
  let toWallet = 0n;
  if (tx.to && target.wallets.includes(tx.to.toLowerCase())) {
    toWallet = tx.value;
    if (signedByShop) sent = tx.value;
  } else {
    // Through a contract (a multisig's payout): what did it pass on to the wallet, and from whom?
    for (const wallet of target.wallets) {
      let delivered;
      try {
        delivered = await tracer.transaction(hash, wallet);
      } catch (err) {
        if (!isStateUnavailable(err) && !isMethodUnsupported(err)) throw err;
        delivered = null;
      }
      if (delivered === null) {
        return wait(`Sent to ${tx.to ?? 'a new contract'}, not the requested wallet ${check.wallet}, and the node cannot trace what it passed on: watched until a node that can trace answers (an archive node)`);
      }
      for (const part of delivered.parts) {
        toWallet += part.valueWei;
        if (signedByShop || payoutFrom(part.from)) sent += part.valueWei;
      }
    }
    if (toWallet === 0n) return refuse(`It sent nothing to the requested wallet ${check.wallet} (it went to ${tx.to ?? 'a new contract'})`);
  }
  if (sent === 0n) return refuse("It was not sent from one of the shop's payout addresses (PAYOUT_ADDRESSES): it is not the shop's payout");
  // Earlier short payouts of this request, confirmed to its wallet: this one brings the rest.
  const earlier = await db.payoutCheck.findMany({
    where: { id: { not: check.id }, deliveredWei: { gt: 0 }, status: 'REFUSED', ...(check.cashoutId ? { cashoutId: check.cashoutId } : { refundId: check.refundId }) },
    select: { deliveredWei: true },
  });
  const before = earlier.reduce((sum, c) => sum + BigInt(c.deliveredWei?.toFixed(0) ?? '0'), 0n);
  const expected = BigInt(check.expectedWei.toFixed(0));
  const low = (expected * BigInt(10_000 - config.payoutToleranceBps)) / 10_000n;
  const high = (expected * BigInt(10_000 + config.payoutToleranceBps)) / 10_000n;
  const total = sent + before;
  const delivered = { wei: sent, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
  const sum = before > 0n ? ` (${formatEth(total)} ETH with the earlier payouts of this request)` : '';
  if (total < low) {
    return refuse(
      `It sent ${formatEth(sent)} ETH${sum}, short of the ${formatEth(expected)} ETH due (${(config.payoutToleranceBps / 100).toFixed(2)}% tolerance): send the rest and mark that transaction paid`,
      delivered,
    );
  }
  const note = total > high ? `It sent ${formatEth(total)} ETH, more than the ${formatEth(expected)} ETH due: the difference is the shop's loss` : null;
  return acceptPayout(db, check.id, delivered, note, now);
}

/** The check pays its request: both change in one transaction with the event, or neither. */
async function acceptPayout(db: Db, checkId: string, delivered: { wei: bigint; blockNumber: bigint; blockHash: string }, note: string | null, now: Date): Promise<PayoutVerdict> {
  return db.$transaction(async (tx) => {
    const check = await tx.payoutCheck.findUniqueOrThrow({ where: { id: checkId } });
    const target: PayoutTarget = check.cashoutId ? { kind: 'cashout', id: check.cashoutId } : { kind: 'refund', id: check.refundId as string };
    const table = Prisma.raw(target.kind === 'cashout' ? '"CashoutRequest"' : '"Refund"');
    await tx.$queryRaw`SELECT "id" FROM ${table} WHERE "id" = ${target.id}::uuid FOR UPDATE`;
    const claimed = await tx.payoutCheck.updateMany({
      where: { id: checkId, status: 'CHECKING' },
      data: { status: 'ACCEPTED', reason: note, deliveredWei: new Prisma.Decimal(delivered.wei.toString()), blockNumber: delivered.blockNumber, blockHash: delivered.blockHash },
    });
    if (claimed.count !== 1) return { state: 'skipped' } as const;
    const paid = { status: 'PAID' as const, payoutTxHash: check.txHash, paidAt: now };
    if (target.kind === 'cashout') {
      const changed = await tx.cashoutRequest.updateMany({ where: { id: target.id, status: { in: [...OPEN_CASHOUT_STATUSES] } }, data: paid });
      if (changed.count !== 1) throw new Error(`cashout ${target.id} is not open: its check cannot be accepted`);
      const cashout = await tx.cashoutRequest.findUniqueOrThrow({ where: { id: target.id } });
      await emitEvent(tx, 'cashout.paid', `cashout:${cashout.id}`, { cashout: cashoutEventData(cashout) }, now);
      return { state: 'accepted', target, notify: true } as const;
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
    return { state: 'accepted', target, notify: refund.userId !== null } as const;
  });
}

function refundEventData(r: {
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
