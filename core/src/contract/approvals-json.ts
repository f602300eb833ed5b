import { z } from 'zod';
import { isoTime, money, personWithEmailJson } from './json-parts.ts';

/** Large money moves waiting for a second admin (Admin > Approvals). */
export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** An approval as the admin pages show it (GET /api/admin/approvals). */
export const approvalJson = z.object({
  _id: z.string(),
  /**
   * BALANCE_INCREASE: an admin's balance edit, applied on approval; PAYOUT: a cashout or refund that may be marked paid once approved;
   * ADMIN_GRANT: admin rights for a user, given on approval; PACKAGE: publishing a package that pays more over its term than it costs
   * (PACKAGE_CREDIT_MULTIPLE), or a change of such a package on sale that gives more, applied on approval.
   */
  kind: z.enum(['BALANCE_INCREASE', 'PAYOUT', 'ADMIN_GRANT', 'PACKAGE']),
  status: z.enum(APPROVAL_STATUSES),
  subject: z.object({ type: z.enum(['user', 'cashout', 'refund', 'product']), id: z.string() }),
  /** Who the money goes to, when a user. */
  beneficiary: personWithEmailJson.nullable(),
  /** USD; null: a payout that could not be valued (no ETH price when asked). PACKAGE: the credit one package pays over its term. */
  amountUsd: money.nullable(),
  /** Why the asking admin wants it; null on requests made before a reason was asked for. */
  reason: z.string().nullable(),
  /** PAYOUT: the wallet the ETH goes to, as approved. */
  wallet: z.string().nullable(),
  /** BALANCE_INCREASE: the change to each balance, USD (exact strings, signed). */
  change: z.object({ active: z.string(), passive: z.string() }).nullable(),
  /**
   * PACKAGE: the package's name, whether it is put on sale, its terms once approved (USD as exact strings), its terms before
   * (a change of a package on sale; null when publishing) and the stock added (null: none); the stock when asked, the
   * stock once approved (at most) and what those units pay in all over their term (USD, exact string).
   */
  package: z
    .object({
      name: z.string(),
      publish: z.boolean(),
      price: z.string(),
      dailyCredit: z.string(),
      durationDays: z.number().int(),
      was: z.object({ price: z.string(), dailyCredit: z.string(), durationDays: z.number().int() }).nullable(),
      stockAdded: z.number().int().nullable(),
      countInStock: z.number().int(),
      stockOnceApproved: z.number().int(),
      stockPaysUsd: z.string(),
    })
    .nullable(),
  requestedBy: z.object({ _id: z.string(), email: z.string() }).nullable(),
  decidedBy: z.object({ _id: z.string(), email: z.string() }).nullable(),
  decidedAt: isoTime.nullable(),
  createdAt: isoTime,
});
export type ApprovalJson = z.infer<typeof approvalJson>;

/** A payout's approval state on the cashout and refund lists. */
export const payoutApprovalJson = z.object({
  /** Worth more than APPROVAL_THRESHOLD_USD: it may be marked paid only once approved. */
  needed: z.boolean(),
  /** Its open (pending or approved) approval, or the latest rejected one. */
  current: z.object({ _id: z.string(), status: z.enum(APPROVAL_STATUSES), requestedBy: z.string() }).nullable(),
});
export type PayoutApprovalJson = z.infer<typeof payoutApprovalJson>;
