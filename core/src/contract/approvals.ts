import { z } from 'zod';
import { idParam } from './common.ts';

/** Large money moves waiting for a second admin (Admin > Approvals). */
export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** An approval as the admin pages show it (GET /api/admin/approvals). */
export type ApprovalJson = {
  _id: string;
  /** BALANCE_INCREASE: an admin's balance edit, applied on approval; PAYOUT: a cashout or refund that may be marked paid once approved; ADMIN_GRANT: admin rights for a user, given on approval. */
  kind: 'BALANCE_INCREASE' | 'PAYOUT' | 'ADMIN_GRANT';
  status: ApprovalStatus;
  subject: { type: 'user' | 'cashout' | 'refund'; id: string };
  /** Who the money goes to, when a user. */
  beneficiary: { _id: string; name: string; email: string } | null;
  /** USD; null: a payout that could not be valued (no ETH price when asked). */
  amountUsd: number | null;
  /** PAYOUT: the wallet the ETH goes to, as approved. */
  wallet: string | null;
  /** BALANCE_INCREASE: the change to each balance, USD (exact strings, signed). */
  change: { active: string; passive: string } | null;
  requestedBy: { _id: string; email: string } | null;
  decidedBy: { _id: string; email: string } | null;
  decidedAt: string | null;
  createdAt: string;
};

/** A payout's approval state on the cashout and refund lists. */
export type PayoutApprovalJson = {
  /** Worth more than APPROVAL_THRESHOLD_USD: it may be marked paid only once approved. */
  needed: boolean;
  /** Its open (pending or approved) approval, or the latest rejected one. */
  current: { _id: string; status: ApprovalStatus; requestedBy: string } | null;
};

/** POST /api/admin/approvals: ask a second admin to approve paying a cashout or a refund. */
export const askApprovalBody = z.object({ kind: z.enum(['cashout', 'refund']), id: idParam });
