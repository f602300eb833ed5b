import {
  adjustBalancesFromForm, holdAdminGrant, dummyPasswordHash, hashPassword, newReferralCode, noteSecurityChange, PASSKEY_WRONG, passkeyAssertionOptions, Prisma, recordAudit,
  revokeUserSessions, secondFactorOn, usePasskey, useSecondFactor, verifyPassword, type AppConfig, type AuditContext, type AuthenticationResponseJSON, type Db, type Effect, type Redis,
  type RelyingParty, type SecondFactor, type SecurityChange,
} from '@shop/core';
import { REFERRALS_SHOWN, usdNumber, type AdminUserListItem, type UserJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';
import { badRequest, conflict, forbidden, UserError, notFound } from '@shop/core';


const userSelect = {
  id: true, name: true, email: true, isAdmin: true, activeBalance: true, passiveBalance: true, referralCode: true, createdAt: true,
} satisfies Prisma.UserSelect;
type UserRow = Prisma.UserGetPayload<{ select: typeof userSelect }>;

/** One page of the people a user referred, newest first (index x_user_live_referrals; their count too). */
export function referralsPage(db: Db, userId: string, page: PageQuery) {
  return db.user.findMany({
    where: { referredById: userId, deletedAt: null, ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.UserWhereInput) },
    select: { id: true, name: true, createdAt: true },
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.UserOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

export async function toUserJson(db: Db, user: UserRow): Promise<UserJson> {
  // A referrer of 50,000 people gets their count and the newest few, not every name.
  const [referrals, referralCount] = await Promise.all([
    referralsPage(db, user.id, { limit: REFERRALS_SHOWN - 1, after: null }),
    db.user.count({ where: { referredById: user.id, deletedAt: null } }),
  ]);
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    activeBalance: usdNumber(user.activeBalance),
    passiveBalance: usdNumber(user.passiveBalance),
    referralCode: user.referralCode,
    referralCommand: referrals.map((r) => ({ _id: r.id, name: r.name })),
    referralCount,
  };
}

function isUniqueViolation(err: unknown, field: string): boolean {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== 'P2002') return false;
  return JSON.stringify(err.meta ?? {}).includes(field) || err.message.includes(field);
}

export async function getUserJson(db: Db, id: string): Promise<UserJson> {
  const user = await db.user.findFirst({ where: { id, deletedAt: null }, select: userSelect });
  if (!user) throw notFound('User not found');
  return toUserJson(db, user);
}

export async function register(
  db: Db,
  input: { email: string; password: string; name: string; referredBy?: string },
): Promise<UserJson> {
  let referredById: string | undefined;
  if (input.referredBy) {
    const referrer = await db.user.findFirst({ where: { referralCode: input.referredBy, deletedAt: null }, select: { id: true } });
    if (!referrer) throw badRequest('Unknown referral code');
    referredById = referrer.id;
  }
  if (await db.user.findUnique({ where: { email: input.email }, select: { id: true } })) {
    throw conflict('A user with this email already exists');
  }
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const user = await db.user.create({
        data: { name: input.name, email: input.email, passwordHash, referralCode: newReferralCode(), referredById },
        select: userSelect,
      });
      return toUserJson(db, user);
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

export const CURRENT_PASSWORD_NEEDED = 'Enter your current password to change your e-mail or password.';

/**
 * A user edits their own profile. A new password or e-mail needs the current password
 * (a stolen session alone must not take the account over; with a second factor on, the
 * route asks for a step-up too), ends every other session of the user (it must not
 * outlive the change meant to lock it out; the session making the change stays signed
 * in), is audited, and is told to the account's address (the old one, for a new e-mail).
 */
export async function updateProfile(
  db: Db,
  actor: AuditContext & { userId: string; sessionId?: string },
  input: { name?: string; email?: string; password?: string; currentPassword?: string },
): Promise<{ user: UserJson; effects: Effect[] }> {
  const current = await db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { email: true, passwordHash: true } });
  const newEmail = input.email !== undefined && input.email !== current.email;
  if (input.password || newEmail) {
    if (!input.currentPassword) throw badRequest(CURRENT_PASSWORD_NEEDED);
    if (!(await verifyPassword(current.passwordHash, input.currentPassword))) throw badRequest('That password is not right.');
  }
  const data: Prisma.UserUpdateInput = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.email !== undefined) data.email = input.email;
  if (input.password) data.passwordHash = await hashPassword(input.password);
  try {
    const { user, effects } = await db.$transaction(async (tx) => {
      const before = await tx.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { email: true } });
      const updated = await tx.user.update({ where: { id: actor.userId }, data, select: userSelect });
      const changes = securityChanges(actor.userId, before.email, updated.email, Boolean(input.password));
      if (changes.length === 0) return { user: updated, effects: [] };
      await revokeUserSessions(tx, actor.userId, { except: actor.sessionId });
      await recordAudit(tx, actor, { action: 'user.credentials_changed', subject: { type: 'user', id: actor.userId }, after: { passwordChanged: Boolean(input.password), emailChanged: updated.email !== before.email } });
      return { user: updated, effects: await Promise.all(changes.map((c) => noteSecurityChange(tx, c))) };
    });
    return { user: await toUserJson(db, user), effects };
  } catch (err) {
    if (isUniqueViolation(err, 'email')) throw conflict('A user with this email already exists');
    throw err;
  }
}

/** What a change of the password or the e-mail address tells the account's owner. */
function securityChanges(userId: string, from: string, to: string, password: boolean): SecurityChange[] {
  return [
    ...(password ? [{ kind: 'PASSWORD_CHANGED' as const, userId }] : []),
    ...(from !== to ? [{ kind: 'EMAIL_CHANGED' as const, userId, from, to }] : []),
  ];
}

/** One page of users, oldest first, optionally those whose name or e-mail contains `q` (trigram indexes). */
export function usersPage(db: Db, q: string | undefined, page: PageQuery) {
  return db.user.findMany({
    where: {
      deletedAt: null,
      // Both are ORs: side by side in AND, neither replaces the other.
      AND: [
        q ? { OR: [{ email: { contains: q, mode: 'insensitive' } }, { name: { contains: q, mode: 'insensitive' } }] } : {},
        keysetWhere('createdAt', 'asc', page.after) as Prisma.UserWhereInput,
      ],
    },
    select: userSelect,
    orderBy: keysetOrder('createdAt', 'asc') as Prisma.UserOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

export function userListJson(users: UserRow[]): AdminUserListItem[] {
  return users.map((u) => ({
    _id: u.id,
    name: u.name,
    email: u.email,
    isAdmin: u.isAdmin,
    activeBalance: usdNumber(u.activeBalance),
    passiveBalance: usdNumber(u.passiveBalance),
    referralCode: u.referralCode,
    createdAt: u.createdAt.toISOString(),
  }));
}

/**
 * An admin edits a user. Balances go through core's adjustBalancesFromForm: a balance
 * left as the form loaded it is not touched, a changed one is an ADMIN_ADJUSTMENT, and a
 * balance that moved since the form was loaded is a 409; an increase over the approval
 * threshold is held for a second admin (`pendingApproval`) while the other fields are
 * saved. All in one transaction with the
 * row locked. Nobody removes their own admin rights; admins do not edit other admins.
 */
export async function adminUpdateUser(
  db: Db,
  config: Pick<AppConfig, 'approvalThresholdUsd'>,
  audit: AuditContext & { actor: { id: string; email: string } },
  targetId: string,
  input: {
    name: string;
    email: string;
    isAdmin: boolean;
    activeBalance: string;
    passiveBalance: string;
    loadedActiveBalance: string;
    loadedPassiveBalance: string;
    password?: string;
  },
): Promise<{ user: UserJson; effects: Effect[] }> {
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  let held: { id: string; amountUsd: Prisma.Decimal } | null = null;
  let grant: { id: string } | null = null;
  const effects: Effect[] = [];
  try {
    await db.$transaction(async (tx) => {
      const actor = audit.actor;
      const rows = await tx.$queryRaw<{ id: string; name: string; email: string; isAdmin: boolean; activeBalance: Prisma.Decimal; passiveBalance: Prisma.Decimal }[]>`
        SELECT "id", "name", "email", "isAdmin", "activeBalance", "passiveBalance" FROM "User" WHERE "id" = ${targetId}::uuid AND "deletedAt" IS NULL FOR UPDATE`;
      const target = rows[0];
      if (!target) throw notFound('User not found');
      const self = target.id === actor.id;
      if (target.isAdmin && !self) throw forbidden('Admins cannot edit other admins');
      if (self && !input.isAdmin) throw badRequest('You cannot remove your own admin rights');
      // Admin rights for another user wait for a second admin; the rest of the edit is saved.
      const promotes = !target.isAdmin && input.isAdmin && !self;
      if (promotes) grant = await holdAdminGrant(tx, audit, target.id);
      ({ held } = await adjustBalancesFromForm(
        tx,
        {
          userId: target.id,
          wanted: { active: input.activeBalance, passive: input.passiveBalance },
          loaded: { active: input.loadedActiveBalance, passive: input.loadedPassiveBalance },
        },
        { config, audit },
      ));
      await tx.user.update({
        where: { id: target.id },
        data: { name: input.name, email: input.email, isAdmin: promotes ? false : input.isAdmin, ...(passwordHash ? { passwordHash } : {}) },
      });
      // A new password or e-mail signs the user out everywhere, and is told to the user's
      // address (the old one for a new e-mail). (Admin rights are read from the database on
      // every request; no API call takes them from another admin.)
      if (passwordHash || input.email !== target.email) await revokeUserSessions(tx, target.id);
      for (const change of securityChanges(target.id, target.email, input.email, Boolean(passwordHash))) effects.push(await noteSecurityChange(tx, change));
      const after = await tx.user.findUniqueOrThrow({ where: { id: target.id }, select: { name: true, email: true, isAdmin: true, activeBalance: true, passiveBalance: true } });
      await recordAudit(tx, audit, {
        action: 'user.update',
        subject: { type: 'user', id: target.id },
        before: auditedUser(target),
        after: { ...auditedUser(after), ...(passwordHash ? { passwordChanged: true } : {}) },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'email')) throw conflict('A user with this email already exists');
    throw err;
  }
  const user = await getUserJson(db, targetId);
  const pending = held as { id: string; amountUsd: Prisma.Decimal } | null;
  const granted = grant as { id: string } | null;
  return {
    user: {
      ...user,
      ...(pending ? { pendingApproval: { _id: pending.id, amountUsd: Number(pending.amountUsd.toFixed(2)) } } : {}),
      ...(granted ? { pendingAdminGrant: { _id: granted.id } } : {}),
    },
    effects,
  };
}

/**
 * Deleting keeps the user's orders, payments and ledger (soft delete); the e-mail is
 * freed and the password disabled so the account can never sign in again.
 */
/** What the audit log keeps of a user before and after an admin's edit (balances as exact strings). */
function auditedUser(u: { name: string; email: string; isAdmin: boolean; activeBalance: Prisma.Decimal; passiveBalance: Prisma.Decimal }) {
  return { name: u.name, email: u.email, isAdmin: u.isAdmin, activeBalance: u.activeBalance.toFixed(2), passiveBalance: u.passiveBalance.toFixed(2) };
}

export async function adminDeleteUser(db: Db, audit: AuditContext, targetId: string): Promise<void> {
  const target = await db.user.findFirst({ where: { id: targetId, deletedAt: null }, select: { id: true, isAdmin: true, name: true, email: true } });
  if (!target) throw notFound('User not found');
  if (target.isAdmin) throw badRequest('Cannot delete an admin user');
  await db.$transaction(async (tx) => {
    const updated = await tx.user.updateMany({
      where: { id: targetId, deletedAt: null, isAdmin: false },
      data: { deletedAt: new Date(), email: `deleted-${targetId}@deleted.invalid`, passwordHash: '!' },
    });
    if (updated.count !== 1) throw notFound('User not found');
    await revokeUserSessions(tx, targetId);
    await recordAudit(tx, audit, { action: 'user.delete', subject: { type: 'user', id: targetId }, before: { name: target.name, email: target.email } });
  });
}
