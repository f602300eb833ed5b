import type { DisplayCurrency, Locale } from './locales.ts';
import { centsToString, roundMoney, toCents } from './money.ts';
import { formatDay, formatTime } from './time.ts';

/**
 * Numbers, money and dates in a language: the one home of how the shop writes them, for the
 * web app's screens (web/src/lib/format.ts, in the visitor's language) and the e-mails (in
 * the recipient's). English keeps SPEC.md's forms ('USD $12.50', 'YYYY-MM-DD HH:MM UTC');
 * Azerbaijani and Russian write them as Intl does for the language, in UTC too.
 */
type When = string | Date | null | undefined;

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: Locale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}:${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** A USD amount as the language writes it: 'USD $12.50' in English (SPEC.md section 9). */
export function formatUsdIn(locale: Locale, amount: number | string): string {
  let rounded: string;
  try {
    rounded = roundMoney(amount);
  } catch {
    return String(amount);
  }
  if (locale === 'en') return `USD $${rounded}`;
  return numberFormat(locale, { style: 'currency', currency: 'USD', currencyDisplay: 'code' }).format(Number(rounded));
}

/**
 * A USD amount converted to a display currency at its configured rate, rounded to the
 * currency's cents: shown beside the USD price, never charged. Exact: the cents are
 * multiplied in bigint, the rate's decimals kept, then rounded half up.
 */
export function formatDisplayIn(locale: Locale, amount: number | string, currency: DisplayCurrency): string {
  let cents: bigint;
  try {
    cents = toCents(amount);
  } catch {
    return '';
  }
  const [whole = '0', fraction = ''] = currency.perUsd.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const abs = cents < 0n ? -cents : cents;
  const converted = (abs * BigInt(whole + fraction) * 2n + scale) / (2n * scale);
  const text = centsToString(cents < 0n ? -converted : converted);
  return numberFormat(locale, { style: 'currency', currency: currency.code, currencyDisplay: 'narrowSymbol' }).format(Number(text));
}

/** A count or decimal as the language writes it (grouping, decimal mark). */
export function formatNumberIn(locale: Locale, value: number | string, maximumFractionDigits = 2): string {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return String(value);
  return numberFormat(locale, { maximumFractionDigits }).format(number);
}

function toDate(when: When): Date | null {
  if (!when) return null;
  const date = when instanceof Date ? when : new Date(when);
  return Number.isNaN(date.getTime()) ? null : date;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: Locale, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}:${withTime}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', ...(withTime ? { timeStyle: 'short', hourCycle: 'h23' } : {}), timeZone: 'UTC' });
    dateFormats.set(key, format);
  }
  return format;
}

/** A moment in the language, in UTC: 'YYYY-MM-DD HH:MM UTC' in English. */
export function formatTimeIn(locale: Locale, when: When): string {
  const date = locale === 'en' ? null : toDate(when);
  return date ? `${dateFormat(locale, true).format(date)} UTC` : formatTime(when);
}

/** A UTC calendar day in the language: 'YYYY-MM-DD' in English. */
export function formatDayIn(locale: Locale, when: When): string {
  const date = locale === 'en' ? null : toDate(when);
  return date ? dateFormat(locale, false).format(date) : formatDay(when);
}
