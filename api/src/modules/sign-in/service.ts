import {
  badRequest, conflict, dummyPasswordHash, hashPassword, newReferralCode, notFound, noteSecurityChange, PASSKEY_WRONG, passkeyAssertionOptions, recordAudit, secondFactorOn, usePasskey, useSecondFactor,
  UserError, verifyPassword, type AppConfig, type AuditContext, type AuthenticationResponseJSON, type Db, type Effect, type Redis, type RelyingParty, type SecondFactor,
} from '@shop/core';
import { DEFAULT_LOCALE, type Locale, type ReferrerJson, type UserJson } from '@shop/core/contract';
import { isUniqueViolation, referralCountChange, toUserJson, userSelect } from '../profile/service.ts';

/** Joining the shop and signing in (a password reset is core's: password-reset.ts). */

const UNKNOWN_REFERRAL_CODE = 'Unknown referral code';

/** The account a referral code (upper-cased, as the contract gives it) belongs to; a deleted one has none. */
function findReferrer(db: Db, referralCode: string) {
  return db.user.findFirst({ where: { referralCode, deletedAt: null }, select: { id: true, name: true } });
}

/** Whose a referral code is, as the register page says it: the name only (404 for no one's). */
export async function referrerOf(db: Db, referralCode: string): Promise<ReferrerJson> {
  const referrer = await findReferrer(db, referralCode);
  if (!referrer) throw notFound(UNKNOWN_REFERRAL_CODE);
  return { name: referrer.name };
}

/** A new account, and its welcome e-mail noted in the same transaction (the effect that sends it). */
export async function register(
  db: Db,
  input: { email: string; password: string; name: string; referredBy?: string },
  /** The language the visitor registers in: their e-mails' (the welcome first). */
  locale: Locale = DEFAULT_LOCALE,
): Promise<{ user: UserJson; effects: Effect[] }> {
  let referredById: string | undefined;
  if (input.referredBy) {
    const referrer = await findReferrer(db, input.referredBy);
    if (!referrer) throw badRequest(UNKNOWN_REFERRAL_CODE);
    referredById = referrer.id;
  }
  if (await db.user.findUnique({ where: { email: input.email }, select: { id: true } })) {
    throw conflict('A user with this email already exists');
  }
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const { user, welcome } = await db.$transaction(async (tx) => {
        const created = await tx.user.create({
          data: { name: input.name, email: input.email, passwordHash, referralCode: newReferralCode(), referredById, locale },
          select: userSelect,
        });
        if (referredById) await referralCountChange(tx, referredById, 1);
        return { user: created, welcome: await noteSecurityChange(tx, { kind: 'WELCOME', userId: created.id }) };
      });
      return { user: await toUserJson(db, user), effects: [welcome] };
    } catch (err) {
      if (isUniqueViolation(err, 'email')) throw conflict('A user with this email already exists');
      if (!isUniqueViolation(err, 'referralCode')) throw err;
    }
  }
  throw new Error('could not allocate a unique referral code');
}

const BAD_CREDENTIALS = 'Invalid email or password';

/**
 * Signs in, and writes the sign-in or the failed attempt to the audit log (with the
 * account tried, when there is one). An account with two-factor sign-in needs `code` too:
 * without it, a 401 that asks for it (`twoFactorRequired`), and no session. The password
 * is checked first, and a wrong one gets the same answer whether or not the account has
 * a second factor.
 */
export async function login(
  deps: { db: Db; config: AppConfig; redis: Redis },
  rp: () => RelyingParty,
  origin: AuditContext,
  input: { email: string; password: string; code?: string; passkey?: AuthenticationResponseJSON },
  /** Counts a code against the account's budget (429 when spent), once the password was right. */
  spendCode: (userId: string) => Promise<void>,
): Promise<{ user: UserJson; secondFactor?: SecondFactor }> {
  const { db, config } = deps;
  const user = await db.user.findFirst({ where: { email: input.email, deletedAt: null }, select: { ...userSelect, passwordHash: true, totpEnabledAt: true } });
  // The same work and the same message whether or not the e-mail exists.
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  const failed = (reason: string) =>
    recordAudit(db, { ...origin, actor: null }, { action: 'user.login_failed', subject: user ? { type: 'user', id: user.id } : null, after: { email: input.email, reason } });
  if (!user || !ok) {
    await failed('password');
    throw new UserError(401, BAD_CREDENTIALS);
  }
  let secondFactor: SecondFactor | undefined;
  if (await secondFactorOn(db, user.id)) {
    if (input.passkey) {
      if (!(await usePasskey(deps, rp(), 'login', user.id, user.id, input.passkey))) {
        await failed('second factor');
        throw new UserError(401, PASSKEY_WRONG, undefined, { twoFactorRequired: true });
      }
      secondFactor = 'passkey';
    } else if (!input.code) {
      // The password was right: worth a line in the log (a guessed password shows here).
      await failed('code needed');
      // The second step: a code, or (with a passkey) the answer to this challenge.
      // No origin to bind a passkey to (a client that is not a browser): the code alone is offered.
      const passkey = await passkeyAssertionOptions(deps, rp, 'login', user.id, user.id).catch((err: unknown) => {
        if (err instanceof UserError) return null;
        throw err;
      });
      const message = user.totpEnabledAt ? CODE_NEEDED : PASSKEY_NEEDED;
      throw new UserError(401, message, undefined, { twoFactorRequired: true, totp: Boolean(user.totpEnabledAt), ...(passkey ? { passkey } : {}) });
    } else {
      await spendCode(user.id);
      const check = await useSecondFactor(db, config, user.id, input.code);
      if (check.factor === null) {
        await failed('second factor');
        throw new UserError(401, check.refusal, undefined, { twoFactorRequired: true });
      }
      secondFactor = check.factor;
    }
  }
  await recordAudit(db, { ...origin, actor: { id: user.id, email: user.email } }, {
    action: 'user.login',
    subject: { type: 'user', id: user.id },
    ...(secondFactor ? { after: { secondFactor } } : {}),
  });
  return { user: await toUserJson(db, user), secondFactor };
}

export const CODE_NEEDED = 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.';
export const PASSKEY_NEEDED = 'Confirm with your passkey, or enter one of your recovery codes.';
