import { recordAudit, type AuditContext } from '../events/audit.ts';
import { Prisma } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import type { PackageChange } from './packages.ts';

/** An approval row, and asking for one (in the caller's transaction, audited there). */

/** Direct balance increases of one admin counted together against the threshold. */
export const APPROVAL_WINDOW_MS = 24 * 3600_000;

export const APPROVAL_NEEDED_DETAIL = { approvalRequired: true } as const;

export type ApprovalRow = Prisma.ApprovalGetPayload<object>;

/**
 * The admin acting, as the audit log records them, and why they make this edit when they
 * said (`reason`: kept on any approval the edit is held for).
 */
export type AdminAudit = AuditContext & { actor: { id: string; email: string }; reason?: string };

export async function createApproval(
  tx: Tx,
  audit: AdminAudit,
  data: {
    kind: 'PAYOUT' | 'BALANCE_INCREASE' | 'ADMIN_GRANT' | 'PACKAGE';
    subjectType: string;
    subjectId: string;
    beneficiaryId: string | null;
    amountUsd: Prisma.Decimal;
    change?: { active: string; passive: string } | PackageChange;
    wallet?: string;
    /** Why the asking admin wants it (the contract's approvalReason bounds it). */
    reason?: string;
  },
): Promise<ApprovalRow> {
  const reason = data.reason ?? (audit.reason || undefined);
  const row = await tx.approval.create({ data: { ...data, reason, requestedById: audit.actor.id } });
  await recordAudit(tx, audit, {
    action: 'approval.requested',
    subject: { type: data.subjectType, id: data.subjectId },
    after: { approval: row.id, kind: data.kind, amountUsd: data.amountUsd.toFixed(2), ...(data.change ? { change: data.change } : {}), ...(data.wallet ? { wallet: data.wallet } : {}), ...(reason ? { reason } : {}) },
  });
  return row;
}
