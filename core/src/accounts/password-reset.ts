import { randomBytes } from 'node:crypto';
import { recordAudit, type AuditOrigin } from '../events/audit.ts';
import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import { UserError } from '../infra/errors.ts';
import { hashPassword } from './password.ts';
import { seal, tokenDigest, unseal } from '../infra/secrets.ts';
import { revokeUserSessions } from './sessions.ts';

/**
 * Password reset by e-mail. A request makes a random token (256 bits) valid for
 * RESET_VALID_MS; the database keeps its SHA-256 to recognise it and the token sealed
 * for the mail job, erased once the e-mail is out. The link works once: setting the new
 * password marks it used, ends every session of the user and retires their other links.
 */
export const RESET_VALID_MS = 30 * 60_000;
const SEAL_PURPOSE = 'password-reset-mail';
/** Reset links one account is sent per hour at most; more requests get the same answer and no e-mail. */
export const RESETS_PER_HOUR = 3;

/** The one answer to a reset request, whether or not the e-mail has an account. */
export const RESET_REQUESTED_MESSAGE = 'If an account uses this e-mail, a link to set a new password is on its way. It works once, for 30 minutes.';
export const RESET_LINK_INVALID = 'This reset link has expired or was already used. Ask for a new one.';
export const RESET_LINK_WORKS = 'This link works: choose a new password.';

/** A reset for the account of `email`, if there is one: its id, for the mail job (null: no such account, nothing to send). */
export async function requestPasswordReset(db: Db, config: AppConfig, origin: AuditOrigin, email: string, now = new Date()): Promise<string | null> {
  const user = await db.user.findFirst({ where: { email, deletedAt: null }, select: { id: true, email: true } });
  if (!user) return null;
  // An inbox is not a target: a few links an hour per account, whoever asks (index PasswordReset(userId, createdAt)).
  const recent = await db.passwordReset.count({ where: { userId: user.id, createdAt: { gt: new Date(now.getTime() - 3600_000) } } });
  if (recent >= RESETS_PER_HOUR) return null;
  const token = randomBytes(32).toString('base64url');
  return db.$transaction(async (tx) => {
    const reset = await tx.passwordReset.create({
      data: {
        userId: user.id,
        tokenHash: tokenDigest(token),
        sealedToken: seal(token, config.jwtSecret, SEAL_PURPOSE),
        expiresAt: new Date(now.getTime() + RESET_VALID_MS),
        createdAt: now,
      },
      select: { id: true },
    });
    await recordAudit(tx, { ...origin, actor: null }, { action: 'user.password_reset_requested', subject: { type: 'user', id: user.id } });
    return reset.id;
  });
}

/**
 * What the mail job sends for reset `resetId`: the address, the user's language and the token, or null when
 * there is nothing to send (used, expired, already sent, or sealed under another secret).
 */
export async function resetMail(
  db: Db,
  config: AppConfig,
  resetId: string,
  now = new Date(),
): Promise<{ to: string; name: string; locale: string | null; token: string; expiresAt: Date } | null> {
  const reset = await db.passwordReset.findUnique({ where: { id: resetId }, include: { user: { select: { email: true, name: true, locale: true, deletedAt: true } } } });
  if (!reset || reset.usedAt || reset.expiresAt <= now || !reset.sealedToken || reset.user.deletedAt) return null;
  const token = unseal(reset.sealedToken, config.jwtSecret, SEAL_PURPOSE);
  return token ? { to: reset.user.email, name: reset.user.name, locale: reset.user.locale, token, expiresAt: reset.expiresAt } : null;
}

/** Erases the sealed token once its e-mail is sent: from then on the database holds only its hash. */
export async function forgetResetToken(db: Db, resetId: string): Promise<void> {
  await db.passwordReset.update({ where: { id: resetId }, data: { sealedToken: null } });
}

/**
 * Whether a link still works, for the page it opens (so a used or expired link says so
 * before a new password is typed): a 400 with the one message `confirmPasswordReset`
 * gives, whatever the reason, and nothing about the account. It changes nothing.
 */
export async function checkPasswordReset(db: Db, token: string, now = new Date()): Promise<void> {
  const reset = await db.passwordReset.findUnique({ where: { tokenHash: tokenDigest(token) }, select: { usedAt: true, expiresAt: true, user: { select: { deletedAt: true } } } });
  if (!reset || reset.usedAt || reset.expiresAt <= now || reset.user.deletedAt) throw new UserError(400, RESET_LINK_INVALID);
}

/**
 * Sets the new password of the token's user, once: a used, expired or unknown token is a
 * 400 with one message (which of them it was helps only a guesser). Returns the user and
 * the reset, for the notice e-mail.
 */
export async function confirmPasswordReset(db: Db, origin: AuditOrigin, input: { token: string; password: string }, now = new Date()): Promise<{ userId: string; resetId: string }> {
  const reset = await db.passwordReset.findUnique({ where: { tokenHash: tokenDigest(input.token) }, select: { id: true, userId: true } });
  if (!reset) throw new UserError(400, RESET_LINK_INVALID);
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    // Claimed in one statement: of two requests with the same link, one wins.
    const claimed = await tx.passwordReset.updateMany({ where: { id: reset.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now, sealedToken: null } });
    if (claimed.count !== 1) throw new UserError(400, RESET_LINK_INVALID);
    const user = await tx.user.updateMany({ where: { id: reset.userId, deletedAt: null }, data: { passwordHash } });
    if (user.count !== 1) throw new UserError(400, RESET_LINK_INVALID);
    // Every other link of the user stops working, and every session ends.
    await tx.passwordReset.updateMany({ where: { userId: reset.userId, usedAt: null }, data: { usedAt: now, sealedToken: null } });
    await revokeUserSessions(tx, reset.userId, { now });
    const email = await tx.user.findUniqueOrThrow({ where: { id: reset.userId }, select: { email: true } });
    await recordAudit(tx, { ...origin, actor: { id: reset.userId, email: email.email } }, { action: 'user.password_reset', subject: { type: 'user', id: reset.userId } });
    return { userId: reset.userId, resetId: reset.id };
  });
}

/** Forgets reset links that ended more than `retentionDays` ago (the retention job). */
export async function prunePasswordResets(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const { count } = await db.passwordReset.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - retentionDays * 24 * 3600_000) } } });
  return count;
}
