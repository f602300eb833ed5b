import { badRequest, conflict, noteSecurityChange, notFound, Prisma, recordAudit, revokeUserSessions, hashPassword, verifyPassword, type AuditContext, type Db, type Effect, type SecurityChange } from '@shop/core';
import { REFERRALS_SHOWN, usdNumber, type UserJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

/**
 * The account as its owner reads it (UserJson: what registering, signing in, the profile,
 * the balance actions and an admin's read of a user answer), the people it referred, and
 * the owner's own edit of the profile.
 */

export const userSelect = {
  id: true, name: true, email: true, isAdmin: true, activeBalance: true, passiveBalance: true, referralCode: true, referralCount: true, createdAt: true,
} satisfies Prisma.UserSelect;
export type UserRow = Prisma.UserGetPayload<{ select: typeof userSelect }>;

/** One page of the people a user referred, newest first (index x_user_live_referrals). */
export function referralsPage(db: Db, userId: string, page: PageQuery) {
  return db.user.findMany({
    where: { referredById: userId, deletedAt: null, ...(keysetWhere('createdAt', 'desc', page.after) as Prisma.UserWhereInput) },
    select: { id: true, name: true, createdAt: true },
    orderBy: keysetOrder('createdAt', 'desc') as Prisma.UserOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}

export async function toUserJson(db: Db, user: UserRow): Promise<UserJson> {
  // A referrer of 50,000 people gets their count (kept on their row: referralCountChange)
  // and the newest few, not every name.
  const referrals = await referralsPage(db, user.id, { limit: REFERRALS_SHOWN - 1, after: null });
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    activeBalance: usdNumber(user.activeBalance),
    passiveBalance: usdNumber(user.passiveBalance),
    referralCode: user.referralCode,
    referralCommand: referrals.map((r) => ({ _id: r.id, name: r.name })),
    referralCount: user.referralCount,
  };
}

/**
 * Moves a referrer's count of live referrals by one, in the transaction that registers
 * (+1) or deletes (-1) the referred user: an increment in place, so concurrent sign-ups
 * each count (the row lock orders them). updatedAt is left alone: it is not a change the
 * reconciler needs to look at.
 */
export async function referralCountChange(tx: Prisma.TransactionClient, referrerId: string, delta: 1 | -1): Promise<void> {
  await tx.$executeRaw`UPDATE "User" SET "referralCount" = "referralCount" + ${delta} WHERE "id" = ${referrerId}::uuid`;
}

/** A write refused by a unique index on `field` (an e-mail taken meanwhile, a referral code drawn twice). */
export function isUniqueViolation(err: unknown, field: string): boolean {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== 'P2002') return false;
  return JSON.stringify(err.meta ?? {}).includes(field) || err.message.includes(field);
}

export async function getUserJson(db: Db, id: string): Promise<UserJson> {
  const user = await db.user.findFirst({ where: { id, deletedAt: null }, select: userSelect });
  if (!user) throw notFound('User not found');
  return toUserJson(db, user);
}

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

/** What a change of the password or the e-mail address tells the account's owner (the owner's edit or an admin's). */
export function securityChanges(userId: string, from: string, to: string, password: boolean): SecurityChange[] {
  return [
    ...(password ? [{ kind: 'PASSWORD_CHANGED' as const, userId }] : []),
    ...(from !== to ? [{ kind: 'EMAIL_CHANGED' as const, userId, from, to }] : []),
  ];
}
