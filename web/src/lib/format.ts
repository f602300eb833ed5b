import { roundMoney } from '@shop/core/contract';

/** A USD amount rounded to cents, as a plain 2-decimal string ("12.50"). */
export function formatMoney(amount: number | string): string {
  try {
    return roundMoney(amount);
  } catch {
    return String(amount);
  }
}

/** SPEC.md section 9: prices read 'USD $' and 2 decimals. */
export function formatUsd(amount: number | string): string {
  return `USD $${formatMoney(amount)}`;
}

// Dates: one format for the shop's screens and e-mails, kept in the contract (time.ts):
// a moment 'YYYY-MM-DD HH:MM UTC', a day 'YYYY-MM-DD'.
export { formatDay, formatTime } from '@shop/core/contract';

/** Whole days from now until `iso` (0 once it has passed), or undefined without a date. */
export function daysLeft(iso: string | null | undefined, now = Date.now()): number | undefined {
  if (!iso) return undefined;
  const ms = new Date(iso).getTime() - now;
  return Number.isNaN(ms) ? undefined : Math.max(0, Math.ceil(ms / 86_400_000));
}

/** Cuts text to `max` characters plus '...' when (and only when) it is longer. */
export function truncate(text: string, max = 30): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/**
 * A hash or address shortened to its first `head` and last `tail` characters:
 * '0x1234ab…cdef' by default, `shortHex(address, 6, 4)` the way wallets show an address.
 */
export function shortHex(value: string, head = 8, tail = 6): string {
  return value.length > head + tail + 1 ? `${value.slice(0, head)}…${value.slice(-tail)}` : value;
}
