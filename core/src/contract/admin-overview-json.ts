import { z } from 'zod';
import { ORDER_STATUSES } from './orders.ts';

/** One UTC day of the chart: what orders paid that day brought in. */
export const overviewDayJson = z.object({
  /** YYYY-MM-DD (UTC). */
  day: z.string(),
  /** The sum of those orders' totalPrice, exact (2 decimals). */
  revenue: z.string(),
  paidOrders: z.number().int(),
});
export type OverviewDayJson = z.infer<typeof overviewDayJson>;

export const overviewPackageJson = z.object({
  productId: z.string(),
  name: z.string(),
  /** Price times quantity over the paid orders' lines, exact (2 decimals). */
  revenue: z.string(),
  qty: z.number().int(),
  orders: z.number().int(),
});
export type OverviewPackageJson = z.infer<typeof overviewPackageJson>;

export const adminOverviewJson = z.object({
  from: z.string(),
  to: z.string(),
  /** Every day of the range, oldest first, zero on a day with no paid order. */
  days: z.array(overviewDayJson),
  totals: z.object({
    revenue: z.string(),
    paidOrders: z.number().int(),
    /** Accounts registered in the range. */
    newUsers: z.number().int(),
    /** Referral rewards credited in the range minus those taken back (exact, may be negative). */
    referralRewards: z.string(),
    /**
     * The gas the shop paid to send the buyers' signed payments (EIP-3009) received in the
     * range, a cost of sale: in dollars at the ETH price when each was mined (exact, 2
     * decimals), in wei (a decimal string), and how many were mined (failed ones included:
     * their gas was paid all the same).
     */
    relayGasUsd: z.string(),
    relayGasWei: z.string(),
    relayedPayments: z.number().int(),
  }),
  /** Orders placed in the range, by their state now. */
  ordersByStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.number().int() })),
  /** Open work, whatever the range: transfers an admin must assign or refund, cashouts to pay. */
  needsAction: z.object({ payments: z.number().int(), cashouts: z.number().int(), cashoutsUsd: z.string() }),
  /** The packages that brought in most in the range, at most five. */
  topPackages: z.array(overviewPackageJson),
});
export type AdminOverviewJson = z.infer<typeof adminOverviewJson>;

/** What waits for the admin asking, as the Admin menu counts it (each at most WAITING_CAP). */
export const adminWaitingJson = z.object({
  /** Pending approvals this admin may decide: asked by another admin, paying someone else. */
  approvals: z.number().int(),
  /** Cashouts waiting to be paid (requested, the operator told or not; held ones wait for their day). */
  cashouts: z.number().int(),
});
export type AdminWaitingJson = z.infer<typeof adminWaitingJson>;
