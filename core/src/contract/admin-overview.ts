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

/**
 * The Admin menu's counts of what waits (GET /api/admin/overview/waiting) stop at this
 * many: each is a count of at most this many rows, and the menu shows 'WAITING_CAP - 1 +' beyond.
 */
export const WAITING_CAP = 100;

/** The UTC day of a time, as YYYY-MM-DD. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** The YYYY-MM-DD day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return utcDay(d);
}
