import { z } from 'zod';
import { intInRange, txHash, usdAmount } from './common.ts';
import type { OverpaymentJson, RefundJson } from './payouts.ts';

export const createOrderBody = z.object({
  orderedItems: z
    .array(z.object({ _id: z.string().uuid('is not a valid product id'), qty: intInRange(1, 1000) }).passthrough())
    .max(50, 'has too many lines (50 at most)'),
  itemsPrice: usdAmount,
  totalPrice: usdAmount,
});

export const reportPaymentBody = z.object({ txHash });

/** A buyer's claim of a transfer that reached the shop without its order's tag (PUT /api/orders/:id/claim). */
export const claimPaymentBody = z.object({
  txHash,
  signature: z.string().trim().regex(/^0x[0-9a-fA-F]{130,}$/, 'must be a signature (0x followed by hex)').max(20_000, 'is too long'),
});

export type OrderStatus = 'PENDING_PAYMENT' | 'VERIFYING' | 'UNDERPAID' | 'LATE' | 'PAID' | 'EXPIRED' | 'DELETED' | 'CANCELLED';
export type PaymentStatus = 'PENDING' | 'COUNTED' | 'REJECTED' | 'UNRESOLVED' | 'LATE' | 'REFUNDED';

export type OrderItemJson = {
  name: string;
  image: string;
  price: number;
  qty: number;
  product: string;
  /** The package's daily credit per unit and term, as bought. */
  dailyCredit?: number;
  durationDays?: number;
  /** When the line's daily credit ends (set once the order is paid). */
  creditEndsAt?: string | null;
};

export type QuoteJson = {
  ethUsd: string;
  amountWei: string;
  amountEth: string;
  usdAmount: number;
  receivingAddress: string;
  chainId: number;
  expiresAt: string;
};

export type PaymentJson = {
  txHash: string;
  status: PaymentStatus;
  confirmations: number;
  requiredConfirmations: number;
  reason: string | null;
  valueWei: string | null;
  usdValue: number | null;
};

export type OrderJson = {
  _id: string;
  user: string | { _id: string; name: string };
  status: OrderStatus;
  isPaid: boolean;
  createdAt: string;
  paidAt: string | null;
  expiresAt: string | null;
  paymentDeadline: string | null;
  itemsPrice: number;
  totalPrice: number;
  paidUsd: number;
  orderedItems: OrderItemJson[];
  quote?: QuoteJson | null;
  /** Set when no quote could be issued because the price feed is unavailable. */
  quoteError?: string;
  payments?: PaymentJson[];
  /** What a paid order received beyond its total and the buyer has not refunded or credited yet. */
  overpayment?: OverpaymentJson | null;
  /** Refunds of this order's overpayment or of its transfers, with their payout. */
  refunds?: RefundJson[];
};

/** An order in the admin list: the user as {_id, name} and a summary of its transfers. */
export type AdminOrderJson = Omit<OrderJson, 'payments'> & {
  payments: { txHash: string; status: PaymentStatus; usdValue: number | null }[];
  /** Whether 'Delete Order' applies (decided on the server), and why not when it does not. */
  canDelete: boolean;
  deleteBlockedReason: string | null;
};
