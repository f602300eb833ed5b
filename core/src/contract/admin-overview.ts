import { z } from 'zod';
import { ORDER_STATUSES } from './orders.ts';

/**
 * The admin overview (GET /api/admin/overview?from=YYYY-MM-DD&to=YYYY-MM-DD) and the CSV
 * exports of the same range (GET /api/admin/export/<file>.csv?from&to). Days are UTC
 * days; `from` and `to` are both included. Without them the range is the last
 * OVERVIEW_DEFAULT_DAYS days, today included.
 */
export const OVERVIEW_DEFAULT_DAYS = 30;
/** The longest range one request reads (a year, leap day included). */
export const OVERVIEW_MAX_DAYS = 366;

/** The CSV files an admin can export for a range, and what each holds. */
export const EXPORT_FILES = {
  'paid-orders': 'Orders paid in the range (by the time they were paid): the revenue on the chart',
  orders: 'Orders placed in the range, in every state',
  payments: 'Transfers seen in the range, in every state',
  ledger: 'Balance movements (ledger entries) in the range',
} as const;
export type ExportFile = keyof typeof EXPORT_FILES;

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
  }),
  /** Orders placed in the range, by their state now. */
  ordersByStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.number().int() })),
  /** Open work, whatever the range: transfers an admin must assign or refund, cashouts to pay. */
  needsAction: z.object({ payments: z.number().int(), cashouts: z.number().int(), cashoutsUsd: z.string() }),
  /** The packages that brought in most in the range, at most five. */
  topPackages: z.array(overviewPackageJson),
});
export type AdminOverviewJson = z.infer<typeof adminOverviewJson>;

/** The UTC day of a time, as YYYY-MM-DD. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** The YYYY-MM-DD day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return utcDay(d);
}
