import { z } from 'zod';
import { intInRange, txHash, usdAmount } from './common.ts';

export const createOrderBody = z.object({
  orderedItems: z
    .array(z.object({ _id: z.string().uuid('is not a valid product id'), qty: intInRange(1, 1000) }).passthrough())
    .max(50, 'has too many lines (50 at most)'),
  itemsPrice: usdAmount,
  totalPrice: usdAmount,
});

export const reportPaymentBody = z.object({ txHash });

export type OrderStatus = 'PENDING_PAYMENT' | 'VERIFYING' | 'UNDERPAID' | 'LATE' | 'PAID' | 'EXPIRED' | 'DELETED';
export type PaymentStatus = 'PENDING' | 'COUNTED' | 'REJECTED' | 'UNRESOLVED' | 'LATE' | 'REFUNDED';

export type OrderItemJson = { name: string; image: string; price: number; qty: number; product: string };

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
};

/** An order in the admin list: the user as {_id, name} and a summary of its transfers. */
export type AdminOrderJson = Omit<OrderJson, 'payments'> & {
  payments: { txHash: string; status: PaymentStatus; usdValue: number | null }[];
};
