import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { recordAudit, type AuditContext } from '../events/audit.ts';
import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import type { Effect } from '../infra/effects.ts';
import { conflict, UserError } from '../infra/errors.ts';
import { verifyPassword } from './password.ts';
import { seal, unseal } from '../infra/secrets.ts';
import { noteSecurityChange } from './security-notices.ts';
import { markStepUp, revokeUserSessions } from './sessions.ts';

/**
 * Two-factor sign-in with TOTP (RFC 6238, otplib): enrolment makes a secret (sealed in
 * the user's row) and an otpauth:// URL for the QR code; a first code confirms it and
 * returns ten single-use recovery codes, shown once. A code is accepted once: the time
 * step of the last accepted code is stored, and a code of that step or an earlier one is
 * refused (claimed in one conditional UPDATE, so two requests with one code cannot both
 * pass). Recovery codes are kept as HMACs under a key derived from JWT_SECRET.
 */
export const TOTP_ISSUER = 'ETH Shop';
const SEAL_PURPOSE = 'totp-secret';
/** A code from the previous or the next 30-second step is accepted too (clock drift). */
const TOLERANCE_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** Unambiguous letters and digits (no 0/O, 1/I/L): 32 symbols, 5 bits each; codes are 10 of them (50 bits). */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export const CODE_WRONG = 'That code is not right. Check the time on your device and enter the current code, or a recovery code.';
/** A current code of a step already spent (the one that turned the app on, or the last sign-in's): the clock is fine, the code is not new. */
export const CODE_USED = 'That code was already used. Wait for your app to show the next code (a new one every 30 seconds) and enter that one.';

export type SecondFactor = 'totp' | 'recovery' | 'passkey';

function recoveryDigest(config: AppConfig, code: string): string {
  const key = Buffer.from(hkdfSync('sha256', config.jwtSecret, '', 'shop:recovery-code', 32));
  return createHmac('sha256', key).update(code.toUpperCase().replace(/[^A-Z0-9]/g, '')).digest('hex');
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/**
 * Starts (or restarts) enrolment: a new secret, not yet in force. Needs the account's
 * password (a stolen session must not lock the owner out with its own authenticator).
 * Refused while TOTP is on.
 */
export async function startTotpEnrolment(db: Db, config: AppConfig, userId: string, password: string): Promise<{ secret: string; otpauthUrl: string }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, totpEnabledAt: true, passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, password))) throw new UserError(400, 'That password is not right.');
  if (user.totpEnabledAt) throw conflict('Two-factor sign-in is already on. Turn it off first to set up another device.');
  const secret = generateSecret();
  const updated = await db.user.updateMany({ where: { id: userId, totpEnabledAt: null }, data: { totpSecret: seal(secret, config.jwtSecret, SEAL_PURPOSE), totpLastStep: null } });
  if (updated.count !== 1) throw conflict('Two-factor sign-in is already on. Turn it off first to set up another device.');
  return { secret, otpauthUrl: generateURI({ issuer: TOTP_ISSUER, label: user.email, secret }) };
}

/** The time step `code` belongs to under `sealed`'s secret, if it is a current code. */
async function totpStep(config: AppConfig, sealed: string | null, code: string): Promise<number | null> {
  const secret = sealed ? unseal(sealed, config.jwtSecret, SEAL_PURPOSE) : null;
  if (!secret || !/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: TOLERANCE_SECONDS }).catch(() => ({ valid: false as const }));
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * Confirms enrolment with a first code: TOTP is on, and the ten recovery codes are
 * returned (the only time they are shown). Every other session of the user ends (one
 * opened with a stolen password must not outlive the change meant to lock it out), and
 * this one counts as having given a second factor now.
 */
export async function confirmTotpEnrolment(
  db: Db,
  config: AppConfig,
  audit: AuditContext,
  session: { userId: string; sessionId?: string },
  code: string,
): Promise<{ recoveryCodes: string[]; effects: Effect[] }> {
  const { userId, sessionId } = session;
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { totpSecret: true, totpEnabledAt: true } });
  if (user.totpEnabledAt) throw conflict('Two-factor sign-in is already on.');
  if (!user.totpSecret) throw new UserError(400, 'Start the set-up first: scan the QR code, then enter the code your app shows.');
  const step = await totpStep(config, user.totpSecret, code.trim());
  if (step === null) throw new UserError(400, 'That code is not right. Enter the 6-digit code your app shows now.');
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "User" WHERE "id" = ${userId}::uuid FOR UPDATE`;
    const wasOn = await secondFactorOn(tx, userId);
    // The secret that was checked is the one turned on (a restarted enrolment is another).
    const on = await tx.user.updateMany({ where: { id: userId, totpEnabledAt: null, totpSecret: user.totpSecret }, data: { totpEnabledAt: new Date(), totpLastStep: step } });
    if (on.count !== 1) throw conflict('The set-up changed meanwhile: start it again.');
    // Recovery codes come with the account's first second factor (a passkey may have come first).
    const recoveryCodes = wasOn ? [] : await issueRecoveryCodes(tx, config, userId);
    await revokeUserSessions(tx, userId, { except: sessionId });
    if (sessionId) await markStepUp(tx, sessionId);
    await recordAudit(tx, audit, { action: '2fa.totp_enabled', subject: { type: 'user', id: userId } });
    return { recoveryCodes, effects: [await noteSecurityChange(tx, { kind: 'FACTOR_ADDED', userId, factor: 'totp' })] };
  });
}

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/**
 * Whether `userId` has a second factor on: TOTP or a passkey. (The session query in
 * sessions.ts reads the same two facts in SQL.)
 */
export async function secondFactorOn(tx: Tx | Db, userId: string): Promise<boolean> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { totpEnabledAt: true, _count: { select: { passkeys: true } } } });
  return Boolean(user && (user.totpEnabledAt || user._count.passkeys > 0));
}

/** Ten new single-use recovery codes for `userId` (any earlier ones retired), stored as HMACs; returned once. */
export async function issueRecoveryCodes(tx: Tx, config: AppConfig, userId: string): Promise<string[]> {
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({ data: recoveryCodes.map((c) => ({ userId, codeHash: recoveryDigest(config, c) })) });
  return recoveryCodes;
}

/** A second factor checked: the one given, or why the code was refused (the message the person reads). */
export type SecondFactorCheck = { factor: SecondFactor } | { factor: null; refusal: string };

/**
 * Checks a second factor for `userId`: a current TOTP code not used before, or an unused
 * recovery code (then spent). When neither, the refusal says why: a current code of a
 * step already spent (the code that turned the app on, a replay, or the loser of two
 * sign-ins racing with one code) is CODE_USED, anything else CODE_WRONG.
 */
export async function useSecondFactor(db: Db, config: AppConfig, userId: string, rawCode: string): Promise<SecondFactorCheck> {
  const code = rawCode.trim();
  const wrong = { factor: null, refusal: CODE_WRONG } as const;
  const user = await db.user.findUnique({ where: { id: userId }, select: { totpSecret: true, totpEnabledAt: true, totpLastStep: true } });
  if (!user) return wrong;
  // Recovery codes stand in for any second factor (TOTP or a passkey).
  const step = user.totpEnabledAt ? await totpStep(config, user.totpSecret, code.replace(/\s/g, '')) : null;
  if (step !== null) {
    // A code is accepted once: its step must be newer than the last one accepted, claimed
    // in one conditional UPDATE (two requests with one code cannot both pass).
    const claimed = await db.$executeRaw`
      UPDATE "User" SET "totpLastStep" = ${step} WHERE "id" = ${userId}::uuid AND ("totpLastStep" IS NULL OR "totpLastStep" < ${step})`;
    return claimed === 1 ? { factor: 'totp' } : { factor: null, refusal: CODE_USED };
  }
  if (code.length > 40) return wrong;
  const spent = await db.recoveryCode.updateMany({ where: { userId, codeHash: recoveryDigest(config, code), usedAt: null }, data: { usedAt: new Date() } });
  return spent.count === 1 ? { factor: 'recovery' } : wrong;
}

/** Turns TOTP off; needs a current code (a recovery code will do for a lost device). The owner is e-mailed. */
export async function disableTotp(db: Db, config: AppConfig, audit: AuditContext, userId: string, code: string): Promise<Effect[]> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { totpEnabledAt: true } });
  if (!user?.totpEnabledAt) throw conflict('The authenticator app is not turned on.');
  const check = await useSecondFactor(db, config, userId, code);
  if (check.factor === null) throw new UserError(400, check.refusal);
  const { factor } = check;
  return db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null } });
    // With a passkey left, two-factor sign-in stays on, and so do the recovery codes.
    if (!(await secondFactorOn(tx, userId))) await tx.recoveryCode.deleteMany({ where: { userId } });
    await recordAudit(tx, audit, { action: '2fa.totp_disabled', subject: { type: 'user', id: userId }, after: { with: factor } });
    return [await noteSecurityChange(tx, { kind: 'FACTOR_REMOVED', userId, factor: 'totp' })];
  });
}

/** How many unused recovery codes `userId` has left. */
export function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  return db.recoveryCode.count({ where: { userId, usedAt: null } });
}
