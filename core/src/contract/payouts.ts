import { z } from 'zod';
import { ethAddress, idParam, txHash } from './common.ts';
import { heldChangeReason } from './approvals.ts';
import { orderReferenceRange } from './order-reference.ts';

/** Marking a cashout or a refund paid: the worker checks this transaction on chain first. */
export const markPaidBody = z.object({ payoutTxHash: txHash });

/** An admin's refund of an order's overpayment: to the address that sent it unless a wallet is given (a transfer's refund: POST /api/admin/payments/:id/refund). */
export const createRefundBody = z.object({
  orderId: z.string().uuid('is not a valid order id'),
  wallet: ethAddress.optional(),
  /** Why, for a second admin when the refund is born waiting for one (kept on its approval). */
  approvalReason: heldChangeReason,
});

/**
 * POST /api/admin/payments/:id/assign: the order an unattributed transfer pays, by the
 * reference people see (`ORD-…`, the prefix optional) or by its id.
 */
export const assignPaymentBody = z.object({
  orderId: z
    .string()
    .trim()
    .max(100)
    .refine((v) => idParam.safeParse(v).success || orderReferenceRange(v, { bare: true }) !== undefined, "must be the order's reference (ORD-…) or its id"),
});

/** POST /api/admin/payments/:id/refund: a transfer's refund, to the address that sent it unless a wallet is given. */
export const refundTransferBody = z.object({ wallet: ethAddress.optional(), approvalReason: heldChangeReason });

/** A buyer's choice for an order's overpayment. */
export const overpaymentBody = z.object({ action: z.enum(['balance', 'refund']) });

/** Another wallet for a refund, signed by the address that sent the refunded ETH. */
export const refundWalletBody = z.object({
  wallet: ethAddress,
  signature: z.string().trim().regex(/^0x[0-9a-fA-F]{130,}$/, 'must be a signature (0x followed by hex)').max(20_000, 'is too long'),
});

export const REFUND_STATUSES = ['REQUESTED', 'PAID'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

