import { recordAudit } from '../events/audit.ts';
import type { AuditAction } from '../contract/audit.ts';
import type { Db } from '../infra/db.ts';
import { conflict, forbidden, notFound } from '../infra/errors.ts';
import { InsufficientBalanceError, type Tx } from '../books/ledger.ts';
import type { PayoutTarget } from '../infra/queues.ts';
import { applyAdminGrant, applyIncrease } from './holds.ts';
import { applyPackageChange } from './packages.ts';
import type { AdminAudit, ApprovalRow } from './requests.ts';
import { payoutWorth, sameWallet } from './worth.ts';

export const SELF_APPROVAL = 'You cannot approve your own request: another admin must.';
export const OWN_MONEY_APPROVAL = 'You cannot approve money that goes to you: another admin must.';
export const OWN_REQUEST_REJECTION = 'This is your own request: withdraw it instead.';
export const NOT_YOUR_REQUEST = 'Only the admin who asked can withdraw this request.';

/** Approve or reject (another admin than the one who asked), or withdraw (the one who asked). */
export type ApprovalDecision = 'approve' | 'reject' | 'withdraw';

const AUDITED: Record<ApprovalDecision, AuditAction> = { approve: 'approval.approved', reject: 'approval.rejected', withdraw: 'approval.withdrawn' };

/**
 * A second admin approves or rejects a pending request; the admin who asked may withdraw
 * it, never approve or reject it (a rejection is the other admin's word, and asks for a
 * second factor at the route). Approving a balance increase applies it (the held change,
 * on the balances as they are now) through the ledger in the same transaction; approving
 * a payout lets it be marked paid. A rejected or withdrawn request is REJECTED; the audit
 * log says which, and who.
 */
export async function decideApproval(db: Db, audit: AdminAudit, input: { id: string; decision: ApprovalDecision }): Promise<ApprovalRow> {
  const decider = audit.actor.id;
  try {
    return await db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Approval" WHERE "id" = ${input.id}::uuid FOR UPDATE`;
      if (locked.length === 0) throw notFound('Approval not found');
      const a = await tx.approval.findUniqueOrThrow({ where: { id: input.id } });
      if (a.status !== 'PENDING') throw conflict(`This request was ${a.status.toLowerCase()} already`);
      const own = a.requestedById === decider;
      if (input.decision === 'withdraw' && !own) throw forbidden(NOT_YOUR_REQUEST);
      if (input.decision === 'reject' && own) throw forbidden(OWN_REQUEST_REJECTION);
      if (input.decision === 'approve') await approve(tx, a, decider);
      const decided = await tx.approval.update({
        where: { id: a.id },
        data: { status: input.decision === 'approve' ? 'APPROVED' : 'REJECTED', decidedById: decider, decidedAt: new Date() },
      });
      await recordAudit(tx, audit, {
        action: AUDITED[input.decision],
        subject: { type: a.subjectType, id: a.subjectId },
        before: { approval: a.id, kind: a.kind, amountUsd: a.amountUsd.toFixed(2), requestedBy: a.requestedById },
        after: { status: decided.status },
      });
      return decided;
    });
  } catch (err) {
    if (err instanceof InsufficientBalanceError) {
      throw conflict('The balance is now lower than this change takes away: reject it and make the edit again.');
    }
    throw err;
  }
}

/** Who may approve, and what approving does: a held change is applied; a payout is checked still open and for the same wallet. */
async function approve(tx: Tx, a: ApprovalRow, decider: string): Promise<void> {
  if (a.requestedById === decider) throw forbidden(SELF_APPROVAL);
  if (a.beneficiaryId === decider) throw forbidden(OWN_MONEY_APPROVAL);
  if (a.kind === 'BALANCE_INCREASE') return applyIncrease(tx, a);
  if (a.kind === 'ADMIN_GRANT') return applyAdminGrant(tx, a);
  if (a.kind === 'PACKAGE') return applyPackageChange(tx, a);
  const payout = await payoutWorth(tx, { kind: a.subjectType as PayoutTarget['kind'], id: a.subjectId });
  if (!payout.open) throw conflict('This payout is settled already: reject the request instead');
  // The admin who created a refund does not approve it either, whoever asked.
  if (payout.createdById === decider) throw forbidden(SELF_APPROVAL);
  if (!sameWallet(a.wallet, payout.wallet)) throw conflict('Its wallet changed since this was asked: reject it and ask again.');
}
