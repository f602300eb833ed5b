import type { Request } from 'express';
import { recordAudit, type AuditContext, type AuditEvent, type Db } from '@shop/core';

/** Who is acting and from where, for the audit log: the signed-in user, the client's address (trust proxy applied) and its user agent. */
export function auditContext(req: Request, actor?: { id: string; email: string } | null): AuditContext {
  const user = actor === undefined ? req.user : actor;
  return { actor: user ? { id: user.id, email: user.email } : null, ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null };
}

/**
 * The signed-in admin acting, for core functions that record their own audit entries
 * (approvals, user edits), with the reason the admin gave for an edit that may wait for a
 * second admin (kept on the approval when it does).
 */
export function signedInActor(req: Request, reason?: string): AuditContext & { actor: { id: string; email: string }; reason?: string } {
  const user = req.user!;
  return { ...auditContext(req), actor: { id: user.id, email: user.email }, ...(reason ? { reason } : {}) };
}

/**
 * Appends the audit entry of an admin action that committed in its own transaction (the
 * money core's payout, refund and assignment steps). Written once the action succeeded;
 * user edits and deletions write theirs inside their transaction instead.
 */
export function audited(req: Request, db: Db, event: AuditEvent): Promise<unknown> {
  return recordAudit(db, auditContext(req), event);
}
