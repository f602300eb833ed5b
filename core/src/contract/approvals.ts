import { z } from 'zod';
import { idParam } from './common.ts';

/**
 * A reason is read by the approver as written: no control or invisible formatting
 * characters (a bidi override could make it read as other terms), line breaks aside.
 */
const PLAIN_TEXT = /^(?:[^\p{Cc}\p{Cf}]|\n)*$/u;
const PLAIN_TEXT_PROBLEM = 'must be plain text (no control or invisible formatting characters)';

/** The most characters an approval request's reason may have (Approval.reason is VARCHAR(500)). */
export const APPROVAL_REASON_MAX = 500;

/** A reason's text as the approver reads it: trimmed, at most APPROVAL_REASON_MAX characters, plain. */
const reasonText = (params: Parameters<typeof z.string>[0]) =>
  z.string(params).trim().max(APPROVAL_REASON_MAX, `must be at most ${APPROVAL_REASON_MAX} characters`).regex(PLAIN_TEXT, PLAIN_TEXT_PROBLEM);

/** Why an admin asks a second admin: required. */
export const approvalReason = reasonText({
  error: (issue) => (issue.input === undefined ? 'is required: say why the second admin should approve it' : 'must be text'),
}).min(1, 'is required: say why the second admin should approve it');

/**
 * Why an admin makes an edit that may wait for a second admin (a large balance increase,
 * admin rights, a package that pays more): optional, as most edits go through; kept on the
 * approval when the edit is held, so the approver reads it.
 */
export const heldChangeReason = reasonText({ message: 'must be text' }).optional();

/** POST /api/admin/approvals: ask a second admin to approve paying a cashout or a refund, and why. */
export const askApprovalBody = z.object({ kind: z.enum(['cashout', 'refund']), id: idParam, reason: approvalReason });

export type { ApprovalJson, ApprovalStatus, PayoutApprovalJson } from './approvals-json.ts';
