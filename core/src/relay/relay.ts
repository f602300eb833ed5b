import { TransactionReceiptNotFoundError, type Address, type Hash, type Hex } from 'viem';
import type { RelayStatus } from '../contract/authorization.ts';
import { formatAsset } from '../contract/money.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { broadcast, errorText, refusedForGood, sendingWallet, type SendingWallet } from '../chain/sending-wallet.ts';
import { ethText } from '../deposit-sweeper/sweeper-wallet.ts';
import { feeAboveCeiling, gasSpent, type Fees } from '../deposit-sweeper/sweeper-budget.ts';
import { Prisma, type Db, type PaymentAuthorization } from '../infra/db.ts';
import type { OrderStatus } from '../contract/orders.ts';
import { dueCents, isPayable } from '../payments/order-states.ts';
import type { Logger } from '../infra/logger.ts';
import { authorizationUsed, transferWithAuthorizationData } from '../rails/erc20/authorization.ts';
import { PRICE_ONE, unitsToUsdCents } from '../rails/value.ts';
import type { Runtime } from '../runtime.ts';
import { revertText } from './accept.ts';

/**
 * The relay: one job per signed authorization (jobs.relayAuthorization) sends it from the
 * relay wallet and follows the transaction to its end, a step per run:
 * - RECEIVED: before its window closes, checked again on chain (its nonce unused, the
 *   call simulated: USDC moved away since is the buyer's failure, and nothing is sent);
 *   then, under the sweeps' fee ceiling (SWEEP_MAX_GAS_PRICE_GWEI), within the 24-hour gas
 *   budget it shares with the sweeps (SWEEP_GAS_BUDGET_ETH) and under its own cap per
 *   payment (RELAY_MAX_GAS_USD, at the worst case: gas limit x max fee), with the wallet
 *   holding that worst case: SENT, its row written (hash, nonce, fees, the signed
 *   transaction) before the broadcast, under a lock, on a nonce no other relay
 *   transaction on its way holds. Anything short of that waits, saying why on the row.
 * - SENT: a receipt of any of its transactions (a replacement shares the nonce: at most one
 *   is mined) as deep as a payment: CONFIRMED, or FAILED when it reverted (the shop paid the
 *   gas); either way the fee is recorded, in wei and in dollars (a cost of sale). Not mined
 *   RELAY_REPLACE_AFTER_MS after it was sent: replaced at a higher fee (same nonce, the
 *   same call; within the cap); after its window closed, by a plain transfer to the relay
 *   wallet itself, which frees the nonce (the authorization can no longer be used).
 * The order is paid as any USDC payment: the indexer finds the Transfer to its deposit
 * address. Never one authorization sent twice: the row moves RECEIVED -> SENT once, by a
 * conditional update, and every later transaction reuses its nonce.
 */
export type RelayDeps = Pick<Runtime, 'db' | 'config' | 'chain' | 'prices'> & { logger: Logger };
export type RelayStep = { state: 'wait'; retryInMs: number; reason: string | null } | { state: 'done'; status: RelayStatus; reason: string | null };

/** The gas limit over the node's estimate. */
const GAS_MARGIN_PERCENT = 20n;
/** What a replacement adds to both fees at least (nodes take a replacement at +10%). */
const REPLACE_BUMP_PERCENT = 13n;
/** An authorization this close to its end is not sent: it might be mined after it. */
const SEND_MARGIN_SECONDS = 30n;
/** An order whose payment window ends this soon is not sent a payment: it would be mined after the window. */
const DEADLINE_MARGIN_MS = 60_000;
/** A freed nonce's transfer to the wallet itself. */
const CANCEL_GAS = 21_000n;

export function relayWallet(deps: Pick<RelayDeps, 'config' | 'chain'>): SendingWallet | null {
  // An external signer signs (eth_signTransaction) and the relay broadcasts: its row and hash are written first, as with a key.
  return sendingWallet({ key: deps.config.relayPrivateKey, address: deps.config.relayAddress, chainId: deps.config.chainId, chain: deps.chain, signFirst: true });
}

export async function relayAuthorization(deps: RelayDeps, id: string, now = new Date()): Promise<RelayStep> {
  const row = await deps.db.paymentAuthorization.findUnique({ where: { id } });
  if (!row) return { state: 'done', status: 'DROPPED', reason: 'no such authorization' };
  if (row.status === 'RECEIVED') return send(deps, row, now);
  if (row.status === 'SENT') return follow(deps, row, now);
  return { state: 'done', status: row.status, reason: row.reason };
}

type Row = PaymentAuthorization;
const dec = (v: bigint) => new Prisma.Decimal(v.toString());
const seconds = (d: Date) => BigInt(Math.floor(d.getTime() / 1000));
const messageOf = (row: Row) => ({ from: row.fromAddress as Address, to: row.toAddress as Address, value: BigInt(row.value.toFixed(0)), validAfter: row.validAfter, validBefore: row.validBefore, nonce: row.nonce as Hex });
const callData = (row: Row) => transferWithAuthorizationData(messageOf(row), row.signature as Hex);
const tokenOf = (row: Row) => tokenBySymbol(row.asset as TokenSymbol);

async function send(deps: RelayDeps, row: Row, now: Date): Promise<RelayStep> {
  const token = tokenOf(row);
  if (seconds(now) + SEND_MARGIN_SECONDS >= row.validBefore) {
    return end(deps, row, 'DROPPED', `Expired before the shop could send it${row.reason ? ` (${row.reason})` : ''}`, false);
  }
  const wallet = relayWallet(deps);
  if (!wallet) return waitSaying(deps, row, 'Relaying is off: set RELAY_PRIVATE_KEY or RELAY_ADDRESS');
  const from = row.fromAddress as Address;
  if (await authorizationUsed(deps.chain, token, from, row.nonce as Hex)) {
    return end(deps, row, 'DROPPED', 'Used or cancelled on chain by another transaction before the shop sent it (anyone may send it); the shop sent nothing', false);
  }
  const data = callData(row);
  // A revert is the token's answer; any other error is the node's (the job tries again), never the buyer's failure.
  const failure = await deps.chain
    .call({ account: wallet.address, to: token.address, data })
    .then(() => null)
    .catch((err: unknown) => {
      if (/revert/i.test(errorText(err))) return revertText(err);
      throw err;
    });
  // The buyer's doing (the USDC moved away, the nonce cancelled): counted against the buyer's limit.
  if (failure) return end(deps, row, 'DROPPED', `Would revert, so not sent: ${failure}`, buyersRevert(failure));

  const fees: Fees = await deps.chain.estimateFeesPerGas();
  const tooDear = feeAboveCeiling(deps.config, fees, formatAsset(token.symbol, BigInt(row.value.toFixed(0))), 1);
  if (tooDear) return waitSaying(deps, row, tooDear.replace('Sweeping waits', 'Relaying waits'));
  const estimate = await deps.chain.estimateGas({ account: wallet.address, to: token.address, data });
  const gasLimit = (estimate * (100n + GAS_MARGIN_PERCENT)) / 100n;
  const limits = await spendingLimits(deps, wallet, gasLimit * fees.maxFeePerGas, now, 0n);
  if (limits) return waitSaying(deps, row, limits);

  const nonce = await deps.chain.getTransactionCount({ address: wallet.address, blockTag: 'pending' });
  const call = { to: token.address, data, gas: gasLimit, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas, nonce };
  const outgoing = (hash: Hash, raw: Hex | null): Outgoing => ({ hash, raw, nonce, gasLimit, fees, now });
  // Signed before it leaves (relayWallet: a key, or a signer asked to sign only): the row is claimed first, then broadcast.
  let claim = 'nonce-held' as Claim;
  try {
    const { hash, broadcast: out } = await wallet.send(call, async (hash, raw) => {
      claim = await claimNonce(deps.db, row, wallet.address, outgoing(hash, raw));
      return claim === 'claimed';
    });
    if (out && claim === 'claimed') {
      deps.logger.info({ msg: 'signed payment relayed', authorization_id: row.id, order_id: row.orderId, tx_hash: hash, nonce });
      return { state: 'wait', retryInMs: followInMs(deps), reason: null };
    }
    if (claim === 'order-changed') return end(deps, row, 'DROPPED', 'Not sent: the order no longer waits for this payment (paid meanwhile, cancelled or expired)', false);
    if (claim === 'order-confirming') return waitSaying(deps, row, 'Relaying waits: another payment of this order is being confirmed on chain');
    // Another payment took this nonce a moment ago: the next one is free as soon as that one is out.
    return waitSaying(deps, row, `Relaying waits: nonce ${nonce}, or the buyer's wallet, is held by another relay transaction on its way`, followInMs(deps));
  } catch (err) {
    if (!refusedForGood(err)) throw err;
    // Never in a mempool: back to RECEIVED, to be sent again (its nonce free again).
    const why = String((err as { shortMessage?: string; message?: string }).shortMessage ?? (err as Error).message).slice(0, 200);
    await deps.db.paymentAuthorization.updateMany({ where: { id: row.id, status: 'SENT', relayNonce: nonce }, data: { status: 'RECEIVED', txHash: null, txHashes: [], relayNonce: null, rawTx: null, reason: `The node refused it: ${why}` } });
    return { state: 'wait', retryInMs: deps.config.relayRetryMs, reason: `The node refused it: ${why}` };
  }
}

/**
 * Why the shop may not spend `worstWei` on this payment now, or null: the cap per payment
 * (RELAY_MAX_GAS_USD at the ETH price now; no price, no sending), the 24-hour budget
 * shared with the sweeps (`counted`: what this row's own transaction on its way already
 * counts there, which a replacement stands in for), the wallet's balance.
 */
async function spendingLimits(deps: RelayDeps, wallet: SendingWallet, worstWei: bigint, now: Date, counted: bigint): Promise<string | null> {
  const answer = await deps.prices.answerOrNull();
  if (answer === null) return 'Relaying waits: no trustworthy ETH price to hold its gas under RELAY_MAX_GAS_USD';
  const worstCents = unitsToUsdCents('ETH', worstWei, answer);
  const capCents = BigInt(Math.round(Number(deps.config.relayMaxGasUsd) * 100));
  if (worstCents > capCents) {
    return `Relaying waits: this payment's gas may cost $${centsText(worstCents)} at the current fee (${ethText(worstWei)} ETH), above RELAY_MAX_GAS_USD ($${centsText(capCents)})`;
  }
  const budget = deps.config.sweepGasBudgetWei;
  const { usedWei, freesAt } = await gasSpent(deps.db, deps.config.sweeperAddress ?? '', now);
  if (usedWei - counted + worstWei > budget) {
    const when = freesAt ? ` (from ${freesAt.toISOString()})` : '';
    return `Relaying waits: the gas budget of ${ethText(budget)} ETH for 24 hours is spent (${ethText(usedWei)} ETH used by sweeps and relays); it sends when older ones leave the window${when}`;
  }
  const balance = await deps.chain.getBalance({ address: wallet.address });
  if (balance < worstWei) return `Relaying waits: the relay wallet ${wallet.address} holds ${ethText(balance)} ETH, less than this payment's gas may cost (${ethText(worstWei)} ETH); top it up`;
  return null;
}

const centsText = (cents: bigint) => `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;

type Outgoing = { hash: Hash; raw: Hex | null; nonce: number; gasLimit: bigint; fees: Fees; now: Date };

/**
 * RECEIVED -> SENT with its first transaction, under the relay's lock and the order's row
 * lock, if no other relay transaction on its way holds the nonce (or the buyer's wallet)
 * and the order still waits for what the authorization pays (not paid meanwhile, in part
 * or whole, nor cancelled or expired: cancelOrder refuses while one is SENT), with no
 * other payment of it being confirmed. Anything else: not written, not broadcast.
 */
async function claimNonce(db: Db, row: Row, relay: Address, out: Outgoing): Promise<Claim> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('relay-send'))`;
    const holder = await tx.paymentAuthorization.count({ where: { relayAddress: relay.toLowerCase(), relayNonce: out.nonce, status: 'SENT', id: { not: row.id } } });
    // One transaction on its way per buyer's wallet (acceptAuthorization takes one at a time; a row written otherwise
    // waits too): two in one block from a wallet that holds one payment would revert the second at the shop's gas.
    const walletBusy = await tx.paymentAuthorization.count({ where: { asset: row.asset, fromAddress: row.fromAddress, status: 'SENT', id: { not: row.id } } });
    const [order] = await tx.$queryRaw<{ status: OrderStatus; totalPrice: Prisma.Decimal; paidUsd: Prisma.Decimal; paymentDeadline: Date | null }[]>`
      SELECT "status", "totalPrice", "paidUsd", "paymentDeadline" FROM "Order" WHERE "id" = ${row.orderId}::uuid FOR UPDATE`;
    // Another payment of the order being confirmed (VERIFYING, or a transfer still PENDING): it may pay the order, so
    // the relay waits for its verdict rather than send on top of it. A window about to close: not sent (the order expires).
    const confirming = order && (order.status === 'VERIFYING' || (await tx.payment.count({ where: { orderId: row.orderId, status: 'PENDING' } })) > 0);
    const closing = order?.paymentDeadline && order.paymentDeadline.getTime() < out.now.getTime() + DEADLINE_MARGIN_MS;
    const verdict: Claim =
      holder > 0 || walletBusy > 0
        ? 'nonce-held'
        : !order || !isPayable(order.status) || closing || unitsToUsdCents(row.asset, BigInt(row.value.toFixed(0)), PRICE_ONE) > dueCents(order)
          ? 'order-changed'
          : confirming
            ? 'order-confirming'
            : 'claimed';
    if (verdict !== 'claimed') return verdict;
    const sent = await tx.paymentAuthorization.updateMany({
      where: { id: row.id, status: 'RECEIVED' },
      data: {
        status: 'SENT',
        relayAddress: relay.toLowerCase(),
        relayNonce: out.nonce,
        txHash: out.hash.toLowerCase(),
        txHashes: [out.hash.toLowerCase()],
        gasLimit: out.gasLimit,
        maxFeePerGasWei: dec(out.fees.maxFeePerGas),
        maxPriorityFeePerGasWei: dec(out.fees.maxPriorityFeePerGas),
        rawTx: out.raw,
        sentAt: out.now,
        reason: null,
      },
    });
    return sent.count > 0 ? 'claimed' : 'nonce-held';
  });
}

type Claim = 'claimed' | 'nonce-held' | 'order-changed' | 'order-confirming';

async function follow(deps: RelayDeps, row: Row, now: Date): Promise<RelayStep> {
  for (const hash of [...row.txHashes].reverse()) {
    const receipt = await deps.chain.getTransactionReceipt({ hash: hash as Hash }).catch((err: unknown) => {
      if (err instanceof TransactionReceiptNotFoundError) return null;
      throw err;
    });
    if (!receipt) continue;
    const head = await deps.chain.getBlockNumber();
    if (head - receipt.blockNumber + 1n < BigInt(deps.config.paymentConfirmations)) return { state: 'wait', retryInMs: followInMs(deps), reason: null };
    const feeWei = receipt.gasUsed * receipt.effectiveGasPrice;
    const answer = await deps.prices.answerOrNull();
    const cost = {
      txHash: hash,
      gasUsed: receipt.gasUsed,
      feeWei: dec(feeWei),
      feeUsd: answer === null ? null : new Prisma.Decimal(unitsToUsdCents('ETH', feeWei, answer).toString()).dividedBy(100),
      blockNumber: receipt.blockNumber,
      minedAt: now,
      rawTx: null,
    };
    const cancelled = (receipt.to ?? '').toLowerCase() === (row.relayAddress ?? '').toLowerCase();
    if (cancelled) return end(deps, row, 'DROPPED', `Never mined before its window closed: its nonce was freed by ${hash}`, false, cost);
    if (receipt.status === 'success') return end(deps, row, 'CONFIRMED', null, false, cost);
    // Its reason, from the call replayed on the state its block left (what made it revert,
    // the USDC moved away ahead of it in the block, is there unless a later transaction undid it).
    const why = await deps.chain
      .call({ account: row.relayAddress as Address, to: tokenOf(row).address, data: callData(row), blockNumber: receipt.blockNumber })
      .then(() => 'reverted')
      .catch((err: unknown) => revertText(err));
    // Its USDC moved away, its nonce used or cancelled, the wallet blocked, its signature withdrawn (a contract wallet)
    // between the check and the block: the buyer's doing, the shop's gas. Mined too late (expired) or short of gas: the shop's.
    return end(deps, row, 'FAILED', `Reverted on chain in block ${receipt.blockNumber} (${why}); the shop paid ${ethText(feeWei)} ETH of gas`, buyersRevert(why), cost);
  }
  // Not mined yet: the node lost it (a key's signed transaction is broadcast again), or it waits in the mempool.
  const wallet = relayWallet(deps);
  if (!wallet || wallet.address.toLowerCase() !== row.relayAddress) return waitSaying(deps, row, `Waits for its transaction ${row.txHash}: the relay wallet it was sent from is no longer configured`);
  const used = await deps.chain.getTransactionCount({ address: wallet.address, blockTag: 'latest' });
  if (row.relayNonce !== null && used > row.relayNonce) return nonceTaken(deps, row, now);
  const known = await deps.chain.getTransaction({ hash: row.txHash as Hash }).then(() => true).catch(() => false);
  if (!known && row.rawTx) await broadcast(deps.chain, row.rawTx as Hex).catch((err: unknown) => deps.logger.warn({ msg: 'could not broadcast a relay transaction again', authorization_id: row.id, err }));
  const sentAt = row.sentAt ?? row.updatedAt;
  if (now.getTime() - sentAt.getTime() < deps.config.relayReplaceAfterMs) return { state: 'wait', retryInMs: followInMs(deps), reason: null };
  return replace(deps, wallet, row, now);
}

/**
 * The relay wallet's nonce was used, by none of this row's transactions (a receipt the node
 * does not serve yet, or another transaction of the wallet: an operator's, a second
 * deployment's). Said on the row first; still so RELAY_REPLACE_AFTER_MS later, none of its
 * transactions can be mined any more: the authorization, unused on chain and still in its
 * window, goes back to RECEIVED to be sent on a fresh nonce; used (by someone who submitted
 * it), DROPPED, having cost the shop nothing.
 */
async function nonceTaken(deps: RelayDeps, row: Row, now: Date): Promise<RelayStep> {
  const note = `Its nonce ${row.relayNonce} was used but none of its transactions has a receipt yet`;
  if (row.reason !== note) return waitSaying(deps, row, note);
  if (now.getTime() - row.updatedAt.getTime() < deps.config.relayReplaceAfterMs) return { state: 'wait', retryInMs: deps.config.relayRetryMs, reason: note };
  // Used as deep as a payment (a reorganization could give the nonce back), and by none of its own transactions
  // (a node that serves a mined transaction before its receipt): else it waits.
  const head = await deps.chain.getBlockNumber();
  const deep = head - BigInt(deps.config.paymentConfirmations) + 1n;
  const usedDeep = deep < 0n ? 0 : await deps.chain.getTransactionCount({ address: row.relayAddress as Address, blockNumber: deep });
  if (usedDeep <= (row.relayNonce as number)) return { state: 'wait', retryInMs: deps.config.relayRetryMs, reason: note };
  for (const hash of row.txHashes) {
    const mined = await deps.chain.getTransaction({ hash: hash as Hash }).then((t) => t.blockNumber !== null).catch(() => false);
    if (mined) return { state: 'wait', retryInMs: deps.config.relayRetryMs, reason: note };
  }
  if (await authorizationUsed(deps.chain, tokenOf(row), row.fromAddress as Address, row.nonce as Hex)) {
    return end(deps, row, 'DROPPED', `Its nonce ${row.relayNonce} was taken by another transaction of the relay wallet, and the authorization was used on chain by someone else`, false);
  }
  const again = await deps.db.paymentAuthorization.updateMany({
    where: { id: row.id, status: 'SENT', reason: note },
    data: { status: 'RECEIVED', relayNonce: null, txHash: null, txHashes: [], gasLimit: null, maxFeePerGasWei: null, maxPriorityFeePerGasWei: null, rawTx: null, sentAt: null, reason: `Its nonce ${row.relayNonce} was taken by another transaction of the relay wallet: sent again` },
  });
  if (again.count > 0) deps.logger.warn({ msg: 'relay nonce taken by another transaction: the signed payment is sent again', authorization_id: row.id, nonce: row.relayNonce });
  return { state: 'wait', retryInMs: followInMs(deps), reason: null };
}

/**
 * A transaction not mined in time: the same call at a higher fee, or (its window closed)
 * a plain transfer to the relay wallet itself, on the same nonce. Waits, saying why, when
 * the higher fee would pass the cap or the budget.
 */
async function replace(deps: RelayDeps, wallet: SendingWallet, row: Row, now: Date): Promise<RelayStep> {
  const expired = seconds(now) + SEND_MARGIN_SECONDS >= row.validBefore;
  const network = await deps.chain.estimateFeesPerGas();
  const bump = (v: bigint) => (v * (100n + REPLACE_BUMP_PERCENT)) / 100n + 1n;
  const oldMax = BigInt((row.maxFeePerGasWei ?? new Prisma.Decimal(0)).toFixed(0));
  const oldTip = BigInt((row.maxPriorityFeePerGasWei ?? new Prisma.Decimal(0)).toFixed(0));
  const maxPriorityFeePerGas = network.maxPriorityFeePerGas > bump(oldTip) ? network.maxPriorityFeePerGas : bump(oldTip);
  const maxFeePerGas = [network.maxFeePerGas, bump(oldMax), maxPriorityFeePerGas].reduce((a, b) => (a > b ? a : b));
  const gasLimit = expired ? CANCEL_GAS : (row.gasLimit ?? CANCEL_GAS);
  const worst = gasLimit * maxFeePerGas;
  const limits = await spendingLimits(deps, wallet, worst, now, (row.gasLimit ?? 0n) * oldMax);
  if (limits) return waitSaying(deps, row, `Not mined since ${(row.sentAt ?? row.updatedAt).toISOString()} and not replaced: ${limits}`);
  const call = expired
    ? { to: wallet.address, data: '0x' as Hex, gas: gasLimit, maxFeePerGas, maxPriorityFeePerGas, nonce: row.relayNonce as number }
    : { to: tokenOf(row).address, data: callData(row), gas: gasLimit, maxFeePerGas, maxPriorityFeePerGas, nonce: row.relayNonce as number };
  const { hash } = await wallet.send(call, async (hash, raw) => {
    const written = await deps.db.paymentAuthorization.updateMany({
      where: { id: row.id, status: 'SENT', txHash: row.txHash },
      data: { txHash: hash.toLowerCase(), txHashes: { push: hash.toLowerCase() }, gasLimit, maxFeePerGasWei: dec(maxFeePerGas), maxPriorityFeePerGasWei: dec(maxPriorityFeePerGas), rawTx: raw, sentAt: now, reason: null },
    });
    return written.count > 0;
  });
  deps.logger.warn({ msg: expired ? 'relay transaction expired unmined: its nonce freed' : 'relay transaction replaced at a higher fee', authorization_id: row.id, replaced: row.txHash, tx_hash: hash, max_fee_per_gas_wei: maxFeePerGas.toString() });
  return { state: 'wait', retryInMs: followInMs(deps), reason: null };
}

/** A token's revert that the holder caused: the balance moved, the nonce used or cancelled, an address blocked, a signature no longer valid. */
export function buyersRevert(reason: string): boolean {
  return /exceeds balance|used or canceled|blacklisted|invalid signature/i.test(reason);
}

/** The end of an authorization: its status, why, whether the buyer's doing, and what its transaction cost. */
async function end(deps: RelayDeps, row: Row, status: Exclude<RelayStatus, 'RECEIVED' | 'SENT'>, reason: string | null, buyerFault: boolean, cost: object = {}): Promise<RelayStep> {
  const ended = await deps.db.paymentAuthorization.updateMany({ where: { id: row.id, status: row.status }, data: { status, reason, buyerFault, ...cost } });
  if (ended.count > 0) {
    const fields = { authorization_id: row.id, order_id: row.orderId, status, reason };
    if (status === 'CONFIRMED') deps.logger.info({ msg: 'signed payment mined', ...fields });
    else deps.logger.warn({ msg: 'signed payment not relayed', ...fields });
  }
  return { state: 'done', status, reason };
}

/** Waits (the job looks again in RELAY_RETRY_MS), the reason kept on the row and logged once. */
async function waitSaying(deps: RelayDeps, row: Row, reason: string, retryInMs = deps.config.relayRetryMs): Promise<RelayStep> {
  if (row.reason !== reason) {
    await deps.db.paymentAuthorization.updateMany({ where: { id: row.id, status: row.status }, data: { reason } });
    deps.logger.info({ msg: 'signed payment waits', authorization_id: row.id, reason });
  }
  return { state: 'wait', retryInMs, reason };
}

/** A transaction on its way is looked at again soon: a block's time, at most RELAY_RETRY_MS. */
const followInMs = (deps: RelayDeps) => Math.min(deps.config.relayRetryMs, 1_000);
