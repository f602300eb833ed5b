import { formatAmountIn, formatDayIn, formatMonthDayIn, formatNumberIn, formatSignedIn, formatSignedUsdIn, formatTimeIn, formatUsdIn, roundMoney } from '@shop/core/contract';
import { activeLocale } from '@/i18n/i18n';

/** A USD amount rounded to cents, as a plain 2-decimal string ("12.50"): for a form's field. */
export function formatMoney(amount: number | string): string {
  try {
    return roundMoney(amount);
  } catch {
    return String(amount);
  }
}

// Money, numbers and dates in the language the app draws in, as the contract writes them
// for every language (locale-format.ts): in English SPEC.md's 'USD $12.50', a moment
// 'YYYY-MM-DD HH:MM UTC' and a day 'YYYY-MM-DD'.

/** A USD amount: 'USD $' and 2 decimals in English (SPEC.md section 9). */
export function formatUsd(amount: number | string): string {
  return formatUsdIn(activeLocale(), amount);
}

/** An amount to 2 decimals without its unit, as the language writes it ('12.50', '12,50'): for reading. */
export function formatAmount(amount: number | string): string {
  return formatAmountIn(activeLocale(), amount);
}

/** A signed amount with its unit: '+2.50 USD', '-40.00 USD' ('+2,50 USD' in az and ru). */
export function signedAmount(amount: string, currency: string): string {
  return formatSignedIn(activeLocale(), amount, currency);
}

/** A signed change in USD: '+$600.00' in English, '+600,00 USD' in az and ru. */
export function formatSignedUsd(amount: string): string {
  return formatSignedUsdIn(activeLocale(), amount);
}

/** A moment, in UTC. */
export function formatTime(when: string | Date | null | undefined): string {
  return formatTimeIn(activeLocale(), when);
}

/** A UTC calendar day. */
export function formatDay(when: string | Date | null | undefined): string {
  return formatDayIn(activeLocale(), when);
}

/** A UTC calendar day without its year, for a chart's axis: 'MM-DD' in English, 'DD.MM' in the others. */
export function formatMonthDay(day: string): string {
  return formatMonthDayIn(activeLocale(), day);
}

/** A count or decimal, with the language's grouping and decimal mark. */
export function formatNumber(value: number | string, maximumFractionDigits?: number): string {
  return formatNumberIn(activeLocale(), value, maximumFractionDigits);
}

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
