import { z } from 'zod';
import { idParam } from './common.ts';

/** The most characters an approval request's reason may have (Approval.reason is VARCHAR(500)). */
export const APPROVAL_REASON_MAX = 500;

/** Why an admin asks a second admin: required, trimmed, at most APPROVAL_REASON_MAX characters. */
export const approvalReason = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required: say why the second admin should approve it' : 'must be text') })
  .trim()
  .min(1, 'is required: say why the second admin should approve it')
  .max(APPROVAL_REASON_MAX, `must be at most ${APPROVAL_REASON_MAX} characters`);

/**
 * Why an admin makes an edit that may wait for a second admin (a large balance increase,
 * admin rights, a package that pays more): optional, as most edits go through; kept on the
 * approval when the edit is held, so the approver reads it. Same bounds as approvalReason.
 */
export const heldChangeReason = z.string({ message: 'must be text' }).trim().max(APPROVAL_REASON_MAX, `must be at most ${APPROVAL_REASON_MAX} characters`).optional();

/** POST /api/admin/approvals: ask a second admin to approve paying a cashout or a refund, and why. */
export const askApprovalBody = z.object({ kind: z.enum(['cashout', 'refund']), id: idParam, reason: approvalReason });

export type { ApprovalJson, ApprovalStatus, PayoutApprovalJson } from './approvals-json.ts';
