import type { Address, Hex } from 'viem';
import { authorizationMessage, MIN_WINDOW_LEFT_SECONDS, WINDOW_PAST_QUOTE_SECONDS, type AuthorizationBody, type TransferAuthorization } from '../contract/authorization.ts';
import { formatAsset } from '../contract/money.ts';
import { tokenBySymbol, TOKEN_SYMBOLS, type Token, type TokenSymbol } from '../contract/tokens.ts';
import { Prisma } from '../infra/db.ts';
import { badRequest, conflict, notFound, unavailable, UserError } from '../infra/errors.ts';
import { errorText } from '../chain/sending-wallet.ts';
import { isPayable } from '../payments/order-states.ts';
import { openQuotes } from '../payments/quotes.ts';
import { isBlocked } from '../rails/erc20/index.ts';
import { authorizationSignedBy, authorizationUsed, takesAuthorizations, transferWithAuthorizationData } from '../rails/erc20/authorization.ts';
import { balanceOfAbi } from '../rails/erc20/abi.ts';
import type { Runtime } from '../runtime.ts';

/**
 * A buyer's signed authorization (EIP-3009) to pay an order, checked before anything is
 * sent (POST /api/orders/:id/authorization). Who chooses what, and what the shop checks:
 * - the buyer chooses `from`, `value`, the window and the nonce, and signs: the signature
 *   must recover to `from` (or its ERC-1271 check pass), so nobody pays with another's
 *   USDC; `value` must be exactly what the order's USDC quote asks (never less, and never
 *   more: a refund of the excess would cost the shop gas too);
 * - `to` must be the order's own deposit address: whoever submits the authorization, the
 *   USDC can only reach this order;
 * - the token contract is the pinned one (contract/tokens.ts), never the caller's;
 * - the window must be open now and leave the shop time to send it;
 * - on chain, now: the nonce unused, `from` holding the USDC, neither address blocked by the
 *   issuer, and the call itself simulated from the relay wallet.
 * Every refusal is a 4xx that says why, and nothing is stored or sent. A buyer whose
 * authorizations failed RELAY_FAILURES_PER_USER_PER_DAY times in 24 hours (relay.ts
 * marks those that were the buyer's doing) is refused for a day (429): each failure can
 * cost the shop gas. One authorization of an order is on its way at a time (under the
 * order's row lock). The caller queues the relay job for the row (jobs.relayAuthorization).
 */
export type AcceptDeps = Pick<Runtime, 'db' | 'config' | 'chain' | 'assetPrices' | 'depositFactory'>;

const DAY_MS = 86_400_000;

export function relayOffReason(config: AcceptDeps['config']): string | null {
  return config.relayAddress ? null : 'This shop does not send signed payments: pay with a transfer from your wallet';
}

/** The token an asset names, if a signature can pay in it here. */
export function signableToken(config: AcceptDeps['config'], asset: string): Token | null {
  if (!(TOKEN_SYMBOLS as readonly string[]).includes(asset) || !config.acceptedAssets.includes(asset as TokenSymbol)) return null;
  const token = tokenBySymbol(asset as TokenSymbol);
  return takesAuthorizations(token) ? token : null;
}

export async function acceptAuthorization(deps: AcceptDeps, user: { id: string }, orderId: string, body: AuthorizationBody, now = new Date()): Promise<{ id: string; status: 'RECEIVED'; message: string }> {
  const { db, config } = deps;
  const off = relayOffReason(config);
  if (off) throw conflict(off);
  const token = signableToken(config, body.asset);
  if (!token) throw badRequest(`${body.asset} cannot be paid with a signature here: only ${signableAssets(config).join(', ') || 'no asset'}`);
  const order = await db.order.findUnique({ where: { id: orderId }, select: { id: true, userId: true, status: true, depositAddress: true } });
  if (!order || order.userId !== user.id || order.status === 'DELETED') throw notFound('Order not found');
  if (!isPayable(order.status)) throw conflict(`This order is not waiting for a payment (it is ${order.status})`);
  if (order.status === 'VERIFYING' || (await db.payment.count({ where: { orderId: order.id, status: 'PENDING' } })) > 0) {
    throw conflict('A payment for this order is being confirmed on chain: wait for it before signing another');
  }
  const deposit = order.depositAddress && deps.depositFactory.depositAddressOf(order.id) === order.depositAddress ? order.depositAddress : null;
  if (!deposit) throw conflict(`This order has no deposit address to pay ${token.symbol} to: pay in ETH`);

  const auth: TransferAuthorization = {
    from: body.from.toLowerCase() as Address,
    to: body.to.toLowerCase() as Address,
    value: BigInt(body.value),
    validAfter: BigInt(body.validAfter),
    validBefore: BigInt(body.validBefore),
    nonce: body.nonce.toLowerCase() as Hex,
  };
  if (auth.to !== deposit.toLowerCase()) throw badRequest(`The authorization pays ${auth.to}, not this order's deposit address ${deposit}`);
  const open = await openQuotes(db, config, order.id, deps.assetPrices.forQuote, now);
  const quote = open.quotes.find((q) => q.asset === token.symbol);
  if (!quote) {
    const why = open.notOffered.find((n) => n.asset === token.symbol)?.reason;
    throw conflict(why ?? `Nothing is due in ${token.symbol} for this order`);
  }
  const due = BigInt(quote.amount.toFixed(0));
  if (auth.value !== due) {
    const said = `The authorization moves ${formatAsset(token.symbol, auth.value)}; this order needs ${formatAsset(token.symbol, due)}`;
    throw badRequest(auth.value < due ? `${said}: sign again for that amount` : `${said}, not more: sign again for exactly that`);
  }
  const nowSeconds = BigInt(Math.floor(now.getTime() / 1000));
  // No longer than the quote it pays, and a little: the relay would otherwise hold it (and the order) long after the quote.
  const quoteEnds = BigInt(Math.floor(quote.expiresAt.getTime() / 1000));
  if (auth.validBefore > quoteEnds + BigInt(WINDOW_PAST_QUOTE_SECONDS)) {
    throw badRequest(`The authorization stays valid after this quote expires (${quote.expiresAt.toISOString()}): sign one that ends with the quote`);
  }
  if (auth.validAfter >= nowSeconds) throw badRequest('The authorization is not valid yet: sign one valid from now');
  if (auth.validBefore <= nowSeconds) throw badRequest('The authorization has expired: sign again');
  if (auth.validBefore < nowSeconds + BigInt(MIN_WINDOW_LEFT_SECONDS)) {
    throw badRequest(`The authorization expires in less than ${MIN_WINDOW_LEFT_SECONDS / 60} minutes, too soon for the shop to send it: sign again`);
  }
  await refuseOverLimit(deps, { userId: user.id, from: auth.from, asset: token.symbol }, now);
  const signature = body.signature as Hex;

  await checkOnChain(deps, token, auth, signature);

  const row = await store(deps, { orderId: order.id, userId: user.id, asset: token.symbol }, auth, signature);
  return { id: row.id, status: 'RECEIVED', message: authorizationMessage('RECEIVED') };
}


/** The checks on chain, now (a node that does not answer: 503): the signature is `from`'s, the nonce unused, neither address blocked, the USDC there, the call itself simulated from the relay wallet. */
async function checkOnChain(deps: AcceptDeps, token: Token, auth: TransferAuthorization, signature: Hex): Promise<void> {
  const { config } = deps;
  await onChain(async () => {
    if (!(await authorizationSignedBy(deps.chain, token, config.chainId, auth, signature))) {
      throw badRequest(`The signature is not ${auth.from}'s signature of this authorization`);
    }
    if (await authorizationUsed(deps.chain, token, auth.from, auth.nonce)) throw conflict('This authorization was used or cancelled already: sign again');
    for (const address of [auth.from, auth.to]) {
      if (await isBlocked(deps, token, address)) throw badRequest(`${address} is on the ${token.symbol} issuer's blocklist: its ${token.symbol} cannot move`);
    }
    const held = await deps.chain.readContract({ address: token.address, abi: balanceOfAbi, functionName: 'balanceOf', args: [auth.from] });
    if (held < auth.value) throw badRequest(`${auth.from} holds ${formatAsset(token.symbol, held)}, less than the ${formatAsset(token.symbol, auth.value)} it authorizes`);
    // What is left (a window the node's clock reads otherwise, a wallet's own rules): the call itself, as the relay will send it.
    await deps.chain.call({ account: config.relayAddress as Address, to: token.address, data: transferWithAuthorizationData(auth, signature) }).catch((err: unknown) => {
      if (/revert/i.test(errorText(err))) throw badRequest(`The authorization cannot be used: ${revertText(err)}`);
      throw err;
    });
  });
}

/** The row, under the buyer's wallet's lock and the order's row lock: one on its way per order and per wallet; one authorization stored once. */
async function store(deps: AcceptDeps, who: { orderId: string; userId: string; asset: TokenSymbol }, auth: TransferAuthorization, signature: Hex): Promise<{ id: string }> {
  return deps.db
    .$transaction(async (tx) => {
      // One on its way per order, and per wallet: a wallet's USDC is checked for one payment at a
      // time, never promised to two orders at once (the second would revert at the shop's gas).
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`relay-from:${auth.from}`}))`;
      await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${who.orderId}::uuid FOR UPDATE`;
      const waiting = await tx.paymentAuthorization.findFirst({ where: { orderId: who.orderId, status: { in: ['RECEIVED', 'SENT'] } }, select: { id: true } });
      if (waiting) throw conflict('A signed payment for this order is already on its way: wait for it');
      const promised = await tx.paymentAuthorization.findFirst({ where: { asset: who.asset, fromAddress: auth.from, status: { in: ['RECEIVED', 'SENT'] } }, select: { id: true } });
      if (promised) throw conflict(`${auth.from} has a signed payment on its way for another order already: wait until it is sent, then sign again`);
      return tx.paymentAuthorization.create({
        data: {
          orderId: who.orderId,
          userId: who.userId,
          asset: who.asset,
          fromAddress: auth.from,
          toAddress: auth.to,
          value: new Prisma.Decimal(auth.value.toString()),
          validAfter: auth.validAfter,
          validBefore: auth.validBefore,
          nonce: auth.nonce,
          signature: signature.toLowerCase(),
        },
        select: { id: true },
      });
    })
    .catch((err: unknown) => {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw conflict('This authorization was sent already');
      throw err;
    });
}

/** The assets a signature can pay in here. */
export function signableAssets(config: AcceptDeps['config']): TokenSymbol[] {
  return config.relayAddress ? TOKEN_SYMBOLS.filter((s) => signableToken(config, s) !== null) : [];
}

/**
 * Refused (429) while the failed authorizations of the last 24 hours reach the limit, by
 * the buyer's account or by the wallet (a new account with the same wallet is the same
 * buyer to the gas it costs); the answer says until when. Reads PaymentAuthorization(userId,
 * createdAt) and the (asset, fromAddress, ...) key.
 */
async function refuseOverLimit(deps: AcceptDeps, who: { userId: string; from: string; asset: TokenSymbol }, now: Date): Promise<void> {
  const limit = deps.config.relayFailuresPerUserPerDay;
  const since = new Date(now.getTime() - DAY_MS);
  const failures = (where: Prisma.PaymentAuthorizationWhereInput) =>
    deps.db.paymentAuthorization.findMany({ where: { ...where, buyerFault: true, createdAt: { gt: since } }, orderBy: { createdAt: 'desc' }, take: limit, select: { createdAt: true } });
  for (const failed of [await failures({ userId: who.userId }), await failures({ asset: who.asset, fromAddress: who.from })]) {
    if (failed.length < limit) continue;
    const until = new Date((failed[failed.length - 1] as { createdAt: Date }).createdAt.getTime() + DAY_MS);
    throw new UserError(
      429,
      `Your last ${limit} signed payments failed because the USDC was no longer in the wallet when the shop sent them. ` +
        `Pay with a transfer from your wallet, or sign again after ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    );
  }
}

/** Reads the chain; a node that does not answer is a 503 (try again), never a refusal of the buyer. */
async function onChain(read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw unavailable('The shop cannot read the chain just now: try again in a minute');
  }
}

/** The token's reason for a revert ("FiatTokenV2: invalid signature"), or the node's words. */
export function revertText(err: unknown): string {
  const e = err as { shortMessage?: string; message?: string; cause?: { reason?: string; shortMessage?: string } };
  const text = e?.cause?.reason ?? e?.shortMessage ?? e?.message ?? String(err);
  return text.replace(/^Execution reverted with reason:\s*/i, '').split('\n')[0]!.replace(/\.$/, '').slice(0, 200);
}
