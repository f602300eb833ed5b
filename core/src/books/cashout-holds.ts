import { randomBytes } from 'node:crypto';
import { recordAudit, type AuditOrigin } from '../events/audit.ts';
import { returnCashout, RETURNABLE_CASHOUT_STATUSES } from './cashout-returns.ts';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { Effect } from '../infra/effects.ts';
import { UserError } from '../infra/errors.ts';
import type { Tx } from './ledger.ts';
import { seal, tokenDigest, unseal } from '../infra/secrets.ts';
import { revokeUserSessions } from '../accounts/sessions.ts';

/**
 * Cashouts to a wallet the account was never paid to. A stolen session's first move is a
 * cashout to the thief's own wallet: such a wallet is "new" to the account until a cashout
 * to it was PAID (one asked for, held or cancelled does not count, nor a wallet that paid
 * an order: a thief could pay a cent from their own). A cashout to a new wallet waits
 * NEW_WALLET_HOLD_HOURS (HELD, its amount already out of the balance through the ledger),
 * and the account's address is e-mailed at once with a link that cancels it: the owner's
 * answer to "this was not me". When the wait is over, the worker's sweep hands it to the
 * admins (REQUESTED, the operator's notice). The link works once, until the wait is over
 * and a week more; the database keeps its SHA-256, and the token sealed for the mail job
 * only until the e-mail is out (as a password reset's).
 */
export const WALLET_BLOCKED = 'This wallet was blocked for your account from a security e-mail: cash out to another wallet.';
export const CANCEL_LINK_INVALID = 'This link is not valid, or it has expired.';
/** How long the link works after the wait is over. */
export const CANCEL_LINK_GRACE_MS = 7 * 24 * 3600_000;
const SEAL_PURPOSE = 'wallet-cancel-link';

/** What the account knows of `wallet`: paid a cashout before, never, or blocked by its owner. */
export type WalletStanding = 'known' | 'new' | 'blocked';

/**
 * The standing of `wallet` for `userId`: the owner's blocks (BlockedWallet's key), then the
 * account's paid cashouts to it in any case (x_cashout_user_wallet: the user's rows for
 * that wallet alone, however many cashouts the account has).
 */
export async function walletStanding(tx: Tx | Db, userId: string, wallet: string): Promise<WalletStanding> {
  const lower = wallet.toLowerCase();
  if (await tx.blockedWallet.findUnique({ where: { userId_wallet: { userId, wallet: lower } }, select: { userId: true } })) return 'blocked';
  const paid = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM "CashoutRequest" WHERE "userId" = ${userId}::uuid AND lower("wallet") = ${lower} AND "status" = 'PAID' LIMIT 1`;
  return paid.length > 0 ? 'known' : 'new';
}

/** The account's cashouts to `wallet` (lower case) in these statuses, oldest first (x_cashout_user_wallet). */
function cashoutsTo(tx: Tx, userId: string, wallet: string, statuses: readonly string[]) {
  return tx.$queryRaw<{ id: string; status: string; amountUsd: Prisma.Decimal }[]>`
    SELECT "id", "status"::text AS "status", "amountUsd" FROM "CashoutRequest"
    WHERE "userId" = ${userId}::uuid AND lower("wallet") = ${wallet} AND "status" = ANY(${[...statuses]}::"CashoutStatus"[])
    ORDER BY "createdAt"`;
}

/** Until when a cashout to a wallet of this standing waits: null when it does not. */
export function holdUntil(config: Pick<AppConfig, 'newWalletHoldHours'>, standing: WalletStanding, now: Date): Date | null {
  if (standing !== 'new' || config.newWalletHoldHours <= 0) return null;
  return new Date(now.getTime() + Math.round(config.newWalletHoldHours * 3600_000));
}

/** The link that cancels a new wallet's cashout, made in the cashout's own transaction. */
export async function issueCancelLink(tx: Tx, config: Pick<AppConfig, 'jwtSecret'>, input: { userId: string; cashoutId: string; wallet: string; holdUntil: Date | null; now: Date }): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await tx.walletCancelLink.create({
    data: {
      userId: input.userId,
      wallet: input.wallet.toLowerCase(),
      cashoutId: input.cashoutId,
      tokenHash: tokenDigest(token),
      sealedToken: seal(token, config.jwtSecret, SEAL_PURPOSE),
      expiresAt: new Date((input.holdUntil ?? input.now).getTime() + CANCEL_LINK_GRACE_MS),
      createdAt: input.now,
    },
  });
}

/** The token the new-wallet e-mail of `cashoutId` carries, or null (none, used, expired, already sent). */
export async function cancelLinkForMail(db: Db, config: Pick<AppConfig, 'jwtSecret'>, cashoutId: string, now = new Date()): Promise<{ id: string; token: string; expiresAt: Date } | null> {
  const link = await db.walletCancelLink.findUnique({ where: { cashoutId } });
  if (!link || link.usedAt || link.expiresAt <= now || !link.sealedToken) return null;
  const token = unseal(link.sealedToken, config.jwtSecret, SEAL_PURPOSE);
  return token ? { id: link.id, token, expiresAt: link.expiresAt } : null;
}

/** Erases the sealed token once its e-mail is out: from then on the database holds only its hash. */
export async function forgetCancelLinkToken(db: Db, linkId: string): Promise<void> {
  await db.walletCancelLink.updateMany({ where: { id: linkId }, data: { sealedToken: null } });
}

export type CancelOutcome = { message: string; wallet: string; cancelled: number; returnedUsd: Prisma.Decimal; stillPaying: number };

/**
 * The owner opened the link: in one transaction, under the link's row lock, the link is
 * used, the wallet blocked for the account, every cashout to it still HELD is CANCELLED
 * with its amount back through the ledger (returnCashout: one released to the admins is
 * not, as its ETH may be on its way before its hash is named; the answer counts those as
 * still being paid), and every session of the account ends (a thief's among them). A second use changes nothing
 * and answers the same, from the rows; an unknown or expired link is a 400.
 */
export async function cancelByLink(db: Db, origin: AuditOrigin, token: string, now = new Date()): Promise<CancelOutcome> {
  return db.$transaction(async (tx) => {
    const [link] = await tx.$queryRaw<{ id: string; userId: string; wallet: string; expiresAt: Date; usedAt: Date | null }[]>`
      SELECT "id", "userId", "wallet", "expiresAt", "usedAt" FROM "WalletCancelLink" WHERE "tokenHash" = ${tokenDigest(token)} FOR UPDATE`;
    if (!link || (!link.usedAt && link.expiresAt <= now)) throw new UserError(400, CANCEL_LINK_INVALID);
    if (!link.usedAt) {
      await tx.walletCancelLink.update({ where: { id: link.id }, data: { usedAt: now, sealedToken: null } });
      await tx.blockedWallet.upsert({ where: { userId_wallet: { userId: link.userId, wallet: link.wallet } }, create: { userId: link.userId, wallet: link.wallet, createdAt: now }, update: {} });
      const cancelled: string[] = [];
      for (const c of await cashoutsTo(tx, link.userId, link.wallet, ['HELD'])) {
        if ((await returnCashout(tx, c.id, 'CANCELLED')) === 'returned') cancelled.push(c.id);
      }
      await revokeUserSessions(tx, link.userId, { now });
      const user = await tx.user.findUniqueOrThrow({ where: { id: link.userId }, select: { email: true } });
      await recordAudit(tx, { ...origin, actor: { id: link.userId, email: user.email } }, {
        action: 'cashout.cancelled_by_link',
        subject: { type: 'user', id: link.userId },
        after: { wallet: link.wallet, cancelled },
      });
    }
    const rows = await cashoutsTo(tx, link.userId, link.wallet, ['CANCELLED', ...RETURNABLE_CASHOUT_STATUSES]);
    const done = rows.filter((r) => r.status === 'CANCELLED');
    const returnedUsd = done.reduce((sum, r) => sum.plus(r.amountUsd), new Prisma.Decimal(0));
    const paying = rows.length - done.length;
    return { message: cancelMessage(link.wallet, done.length, returnedUsd, paying), wallet: link.wallet, cancelled: done.length, returnedUsd, stillPaying: paying };
  });
}

function cancelMessage(wallet: string, cancelled: number, returned: Prisma.Decimal, paying: number): string {
  const parts = [
    cancelled > 0 ? `Cancelled: $${returned.toFixed(2)} is back in your active balance.` : paying > 0 ? '' : 'Nothing was waiting to be paid to this wallet.',
    paying > 0 ? `A cashout to this wallet was already with the admins to pay and could not be stopped: tell us at once.` : '',
    `The wallet ${wallet} is blocked for your account, and every session of your account was signed out: sign in and change your password.`,
  ];
  return parts.filter(Boolean).join(' ');
}

/**
 * The worker's sweep: HELD cashouts whose wait is over become REQUESTED (one conditional
 * UPDATE: of the sweep and the owner's link, one wins), and their operator notices are
 * queued. Each is priced again: at the higher of the ETH price it was asked at and
 * `ethUsdNow` (fewer ETH for the same dollars), so the wait is no free bet on the price
 * (ETH rose: paid at today's; fell: at the old one, and cancelling to ask again gets
 * only today's). With no price now, its price is cleared: it is valued at the price of
 * the day it is marked paid (as one asked while no price could be read). Reads the ended
 * holds only (CashoutRequest(status, holdUntil)), `limit` at a time.
 */
export async function releaseHeldCashouts(db: Db, now = new Date(), ethUsdNow: string | null = null, limit = 500): Promise<{ released: string[]; effects: Effect[] }> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE "CashoutRequest" SET "status" = 'REQUESTED', "updatedAt" = ${now},
      "ethUsd" = CASE WHEN ${ethUsdNow}::numeric IS NULL THEN NULL ELSE GREATEST("ethUsd", ${ethUsdNow}::numeric) END
    WHERE "id" = ANY(ARRAY(SELECT "id" FROM "CashoutRequest" WHERE "status" = 'HELD' AND "holdUntil" <= ${now} ORDER BY "holdUntil" LIMIT ${limit}))
      AND "status" = 'HELD'
    RETURNING "id"`;
  const released = rows.map((r) => r.id);
  return { released, effects: released.map((cashoutId) => ({ kind: 'cashout-notice', cashoutId })) };
}

/** Forgets cancel links that ended more than `retentionDays` ago (the retention job; a blocked wallet stays blocked). */
export async function pruneCancelLinks(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const { count } = await db.walletCancelLink.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - retentionDays * 24 * 3600_000) } } });
  return count;
}
