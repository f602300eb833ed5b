import {
  adjustBalancesFromForm, badRequest, conflict, forbidden, hashPassword, holdAdminGrant, noteSecurityChange, notFound, Prisma, recordAudit, revokeUserSessions,
  type AppConfig, type AuditContext, type Db, type Effect,
} from '@shop/core';
import { usdNumber, type AdminUserListItem, type UserJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';
import { getUserJson, isUniqueViolation, referralCountChange, securityChanges, userSelect, type UserRow } from '../profile/service.ts';

/** An admin's work on the users: the list, an edit (balances through the ledger), a delete. */

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

/** What the audit log keeps of a user before and after an admin's edit (balances as exact strings). */
function auditedUser(u: { name: string; email: string; isAdmin: boolean; activeBalance: Prisma.Decimal; passiveBalance: Prisma.Decimal }) {
  return { name: u.name, email: u.email, isAdmin: u.isAdmin, activeBalance: u.activeBalance.toFixed(2), passiveBalance: u.passiveBalance.toFixed(2) };
}

/**
 * Deleting keeps the user's orders, payments and ledger (soft delete); the e-mail is
 * freed and the password disabled so the account can never sign in again.
 */
export async function adminDeleteUser(db: Db, audit: AuditContext, targetId: string): Promise<void> {
  const target = await db.user.findFirst({ where: { id: targetId, deletedAt: null }, select: { id: true, isAdmin: true, name: true, email: true, referredById: true } });
  if (!target) throw notFound('User not found');
  if (target.isAdmin) throw badRequest('Cannot delete an admin user');
  await db.$transaction(async (tx) => {
    const updated = await tx.user.updateMany({
      where: { id: targetId, deletedAt: null, isAdmin: false },
      data: { deletedAt: new Date(), email: `deleted-${targetId}@deleted.invalid`, passwordHash: '!' },
    });
    if (updated.count !== 1) throw notFound('User not found');
    // Only the deletion that took the row counts (a second one found it deleted: 404).
    if (target.referredById) await referralCountChange(tx, target.referredById, -1);
    await revokeUserSessions(tx, targetId);
    await recordAudit(tx, audit, { action: 'user.delete', subject: { type: 'user', id: targetId }, before: { name: target.name, email: target.email } });
  });
}
