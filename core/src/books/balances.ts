import { randomUUID } from 'node:crypto';
import type { Effect } from '../infra/effects.ts';
import { isAddress } from 'viem';
import { holdLargeIncrease } from '../approvals/index.ts';
import type { AuditContext } from '../events/audit.ts';
import { holdUntil, issueCancelLink, WALLET_BLOCKED, walletStanding } from './cashout-holds.ts';
import { rejectReturned } from './cashout-returns.ts';
import type { AppConfig } from '../infra/config.ts';
import { forwarderOf } from '../deposits/addresses.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { badRequest, conflict } from '../infra/errors.ts';
import { postEntries, type LedgerEntryInput, type Tx } from './ledger.ts';
import { noteSecurityChange } from '../accounts/security-notices.ts';
import { emitEvent } from '../events/webhooks.ts';

export { OPEN_CASHOUT_STATUSES, RETURNABLE_CASHOUT_STATUSES } from './cashout-returns.ts';

/**
 * Balance operations a user starts (exchange, cashout), an admin's answers to a cashout,
 * and an admin's balance edit. Each locks the user's row, decides from the locked
 * balance, and writes the ledger entries, the balance and any request in one
 * transaction. A refusal is a UserError (400 or 409) with the message the user sees.
 */
async function lockUser(tx: Tx, userId: string) {
  const rows = await tx.$queryRaw<{ activeBalance: Prisma.Decimal; passiveBalance: Prisma.Decimal }[]>`
    SELECT "activeBalance", "passiveBalance" FROM "User" WHERE "id" = ${userId}::uuid AND "deletedAt" IS NULL FOR UPDATE`;
  const row = rows[0];
  if (!row) throw badRequest('User not found');
  return { active: new Prisma.Decimal(row.activeBalance), passive: new Prisma.Decimal(row.passiveBalance) };
}

/**
 * Moves `amount` of the active balance to the passive balance (the whole active balance
 * when no amount is given). The amount is what the user confirmed: when the balance fell
 * below it meanwhile (a cashout in another tab), it is a 409 and nothing moves, never a
 * smaller or larger move than the one confirmed. With a `requestId` (the confirmation's
 * own id) it is safe to send twice: the second finds the first's entries and moves nothing.
 */
export async function exchangeBalance(
  db: Db,
  userId: string,
  input: { amount?: string; requestId?: string } = {},
): Promise<{ moved: Prisma.Decimal; repeated: boolean }> {
  return db.$transaction(async (tx) => {
    const { active } = await lockUser(tx, userId);
    const key = `exchange:${userId}:${input.requestId ?? randomUUID()}`;
    const amount = input.amount === undefined ? active : new Prisma.Decimal(input.amount);
    if (input.requestId) {
      const done = await tx.ledgerEntry.findUnique({ where: { idempotencyKey: `${key}:in` }, select: { amount: true } });
      // The same exchange again moves nothing; the same id for another amount is not the same exchange.
      if (done && input.amount !== undefined && !done.amount.eq(amount)) {
        throw conflict(`This exchange was already made, of ${done.amount.toFixed(2)}: nothing more was moved. Check your balances.`);
      }
      if (done) return { moved: done.amount, repeated: true };
    }
    if (active.lte(0)) throw badRequest('Your active balance is empty: nothing to exchange');
    if (amount.lte(0)) throw badRequest('Enter an amount above 0.00 to exchange');
    if (amount.gt(active)) {
      throw conflict(`Your active balance is ${active.toFixed(2)} now, less than the ${amount.toFixed(2)} you asked to exchange: nothing was moved. Check the amount and exchange again.`);
    }
    await postEntries(tx, [
      { userId, account: 'ACTIVE', amount: amount.negated(), kind: 'EXCHANGE', reference: key, idempotencyKey: `${key}:out` },
      { userId, account: 'PASSIVE', amount, kind: 'EXCHANGE', reference: key, idempotencyKey: `${key}:in` },
    ]);
    return { moved: amount, repeated: false };
  });
}

/** What payoutWallet reads of the configuration: the shop's own addresses. */
export type PayoutWalletConfig = Pick<AppConfig, 'receivingAddress' | 'depositFactoryAddress' | 'sweeperAddress' | 'payoutAddresses'>;

/** The shop's own addresses a payout must never go to, by what they are (lower-cased). */
function shopAddresses(config: PayoutWalletConfig): Map<string, string> {
  const own = new Map<string, string>();
  for (const a of config.payoutAddresses) own.set(a.toLowerCase(), 'a payout address');
  if (config.sweeperAddress) own.set(config.sweeperAddress.toLowerCase(), 'the gas wallet');
  if (config.depositFactoryAddress) {
    own.set(config.depositFactoryAddress.toLowerCase(), 'the deposit factory');
    own.set(forwarderOf(config.depositFactoryAddress).toLowerCase(), 'the deposit forwarder');
  }
  return own;
}

/**
 * A wallet a payout can go to: a 20-byte address (a mixed-case one must carry a valid
 * EIP-55 checksum, which catches a mistyped character) that is none of the shop's own:
 * not the receiving address, not any order's deposit address (unique index on
 * Order.depositAddress, stored lower-cased), the deposit factory or its forwarder, the
 * sweeper's gas wallet, nor one of PAYOUT_ADDRESSES. ETH "paid" there never leaves the
 * shop, yet the payout would be PAID. Returns it as given (trimmed).
 */
export async function payoutWallet(db: Db | Tx, config: PayoutWalletConfig, wallet: string): Promise<`0x${string}`> {
  const value = wallet.trim();
  if (!isAddress(value, { strict: false })) throw badRequest('wallet must be an Ethereum address (0x followed by 40 hex characters)');
  if (!isAddress(value, { strict: true })) {
    throw badRequest('wallet has a mistyped character: its mixed-case letters do not match the address checksum (EIP-55). Copy it again from your wallet.');
  }
  const lower = value.toLowerCase();
  if (lower === config.receivingAddress.toLowerCase()) {
    throw badRequest("This is the shop's own receiving address: enter the wallet the payout should go to");
  }
  const own = shopAddresses(config).get(lower) ?? ((await db.order.findUnique({ where: { depositAddress: lower }, select: { id: true } })) ? "an order's deposit address" : null);
  if (own) throw badRequest(`This is one of the shop's own addresses (${own}): enter the wallet the payout should go to`);
  return value as `0x${string}`;
}

type CashoutConfig = PayoutWalletConfig & Pick<AppConfig, 'cashoutMinimum' | 'newWalletHoldHours' | 'jwtSecret'>;

/**
 * What a cashout of `active` to `wallet` would do: the whole active balance leaves, only
 * when it is strictly above the minimum; never to a wallet the owner blocked; to a wallet
 * the account was never paid to, it waits (cashout-holds.ts). The one home of these rules,
 * for the request and for its preview.
 */
async function planCashout(tx: Tx | Db, config: CashoutConfig, input: { userId: string; wallet: string; active: Prisma.Decimal; now: Date }) {
  if (!input.active.gt(new Prisma.Decimal(config.cashoutMinimum))) throw badRequest('Not Enough Money');
  const standing = await walletStanding(tx, input.userId, input.wallet);
  if (standing === 'blocked') throw badRequest(WALLET_BLOCKED);
  return { amount: input.active, newWallet: standing === 'new', holdUntil: holdUntil(config, standing, input.now) };
}

/** What a cashout to `wallet` would do now, for the page to show before the user confirms it (nothing is written). */
export async function previewCashout(db: Db, config: CashoutConfig, input: { userId: string; wallet: string }) {
  const wallet = await payoutWallet(db, config, input.wallet);
  const user = await db.user.findFirst({ where: { id: input.userId, deletedAt: null }, select: { activeBalance: true } });
  if (!user) throw badRequest('User not found');
  return { wallet, ...(await planCashout(db, config, { userId: input.userId, wallet, active: user.activeBalance, now: new Date() })) };
}

/**
 * Cashout: the whole active balance leaves in one go (planCashout's rules) and a
 * CashoutRequest records it: HELD until its wait is over for a new wallet (no operator
 * notice yet; the e-mail's cancel link is made with it), REQUESTED otherwise. The
 * account's owner is e-mailed either way. Concurrent requests serialize on the row lock;
 * the second sees a zero balance.
 */
export async function requestCashout(
  db: Db,
  config: CashoutConfig,
  input: { userId: string; wallet: string; ethUsd?: string },
): Promise<{ cashoutId: string; amount: Prisma.Decimal; effects: Effect[] }> {
  const wallet = await payoutWallet(db, config, input.wallet);
  return db.$transaction(async (tx) => {
    const now = new Date();
    const { active } = await lockUser(tx, input.userId);
    const plan = await planCashout(tx, config, { userId: input.userId, wallet, active, now });
    const request = await tx.cashoutRequest.create({
      data: {
        userId: input.userId, wallet, amountUsd: active, ethUsd: input.ethUsd ? new Prisma.Decimal(input.ethUsd) : null,
        status: plan.holdUntil ? 'HELD' : 'REQUESTED', holdUntil: plan.holdUntil, createdAt: now,
      },
    });
    await postEntries(tx, [
      { userId: input.userId, account: 'ACTIVE', amount: active.negated(), kind: 'CASHOUT', reference: `cashout:${request.id}`, idempotencyKey: `cashout:${request.id}` },
    ]);
    await emitEvent(tx, 'cashout.requested', `cashout:${request.id}`, { cashout: cashoutEventData(request) });
    if (plan.newWallet) await issueCancelLink(tx, config, { userId: input.userId, cashoutId: request.id, wallet, holdUntil: plan.holdUntil, now });
    const told = await noteSecurityChange(tx, { kind: 'CASHOUT_REQUESTED', userId: input.userId, cashoutId: request.id });
    const operator: Effect[] = plan.holdUntil ? [] : [{ kind: 'cashout-notice', cashoutId: request.id }];
    return { cashoutId: request.id, amount: active, effects: [...operator, told] };
  });
}

/** What cashout events carry. */
export function cashoutEventData(c: { id: string; userId: string; wallet: string; amountUsd: Prisma.Decimal; ethUsd: Prisma.Decimal | null; status: string; payoutTxHash: string | null }) {
  return { id: c.id, userId: c.userId, wallet: c.wallet, amountUsd: c.amountUsd.toFixed(2), ethUsd: c.ethUsd?.toFixed(8) ?? null, status: c.status, payoutTxHash: c.payoutTxHash };
}

/**
 * Admin: refused; the amount goes back to the user's active balance through the ledger
 * (cashout-returns.ts: not while a payout transaction is being checked for it, nor once
 * one delivered part of it). False when it was settled already.
 */
export async function rejectCashout(db: Db, cashoutId: string): Promise<boolean> {
  return db.$transaction((tx) => rejectReturned(tx, cashoutId));
}

const ACCOUNTS = { ACTIVE: 'active', PASSIVE: 'passive' } as const;

/**
 * An admin's balance edit, from a form that shows the balances it loaded. A balance the
 * admin left as loaded is not touched (credit, rewards or a cashout may have moved it
 * since); a changed one becomes an ADMIN_ADJUSTMENT for the difference, unless the
 * balance moved since the form was loaded: then it is a 409 the form shows, never an
 * overwrite. An increase of more than APPROVAL_THRESHOLD_USD is held for a second admin
 * instead (`held`). Runs in the caller's transaction.
 */
export async function adjustBalancesFromForm(
  tx: Tx,
  input: { userId: string; wanted: { active: string; passive: string }; loaded: { active: string; passive: string } },
  approval: { config: Pick<AppConfig, 'approvalThresholdUsd'>; audit: AuditContext & { actor: { id: string; email: string } } },
): Promise<{ held: { id: string; amountUsd: Prisma.Decimal } | null }> {
  const actorId = approval.audit.actor.id;
  const current = await lockUser(tx, input.userId);
  const operation = randomUUID();
  const entries: LedgerEntryInput[] = [];
  for (const account of ['ACTIVE', 'PASSIVE'] as const) {
    const key = ACCOUNTS[account];
    const wanted = new Prisma.Decimal(input.wanted[key]);
    const loaded = new Prisma.Decimal(input.loaded[key]);
    if (wanted.eq(loaded)) continue;
    if (wanted.lt(0)) throw badRequest(`The ${key} balance can only be set to zero or more`);
    if (!current[key].eq(loaded)) {
      throw conflict(`The ${key} balance changed since this form was loaded (it is now $${current[key].toFixed(2)}). Reload the user and enter the change again.`);
    }
    entries.push({
      userId: input.userId,
      account,
      amount: wanted.minus(current[key]),
      kind: 'ADMIN_ADJUSTMENT',
      reference: `admin:${actorId}`,
      idempotencyKey: `admin-adjust:${operation}:${account}`,
    });
  }
  // A large increase waits for a second admin (approvals.ts): held, nothing posted.
  const change = (account: 'ACTIVE' | 'PASSIVE') => entries.find((e) => e.account === account)?.amount ?? 0;
  const held = await holdLargeIncrease(tx, approval.config, approval.audit, {
    userId: input.userId,
    change: { active: new Prisma.Decimal(change('ACTIVE')), passive: new Prisma.Decimal(change('PASSIVE')) },
  });
  if (held) return { held: { id: held.id, amountUsd: held.amountUsd } };
  await postEntries(tx, entries);
  return { held: null };
}
