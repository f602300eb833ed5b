import type { DisplayCurrency, Locale } from './locales.ts';
import { centsToString, roundMoney, toCents } from './money.ts';
import { formatDay, formatTime } from './time.ts';

/**
 * Numbers, money and dates in a language: the one home of how the shop writes them, for the
 * web app's screens (web/src/lib/format.ts, in the visitor's language) and the e-mails (in
 * the recipient's). English keeps SPEC.md's forms ('USD $12.50', 'YYYY-MM-DD HH:MM UTC');
 * Azerbaijani and Russian write '1.234,50 USD' and '1 234,50 USD', and dates as both do,
 * '29.11.2026 07:05 UTC', in UTC.
 *
 * Written here rather than by Intl for the language: a page drawn on the server (Node's
 * full ICU) is taken over by the browser, which must write every number as the server did,
 * and browsers do not all carry Azerbaijani's data (Debian's Chromium writes 'USD 1,234.50'
 * for it). Only English's Intl, which every runtime has, groups the digits.
 */
type When = string | Date | null | undefined;

/** How Azerbaijani and Russian write a number: their grouping and decimal marks. */
const MARKS: Record<Exclude<Locale, 'en'>, { group: string; decimal: string }> = {
  az: { group: '.', decimal: ',' },
  ru: { group: '\u00a0', decimal: ',' },
};
/** Signs written after an amount instead of the currency's code. */
const CURRENCY_SIGNS: Record<string, string> = { AZN: '₼' };

const grouping = new Map<string, Intl.NumberFormat>();
/** A number as English groups it ('1,234.5'), with the given fraction digits. */
function english(value: number, minimumFractionDigits: number, maximumFractionDigits: number): string {
  const key = `${minimumFractionDigits}:${maximumFractionDigits}`;
  let format = grouping.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits, maximumFractionDigits });
    grouping.set(key, format);
  }
  return format.format(value);
}

/** English's marks swapped for the language's. */
function marked(locale: Locale, text: string): string {
  if (locale === 'en') return text;
  const { group, decimal } = MARKS[locale];
  return text.replace(/[,.]/g, (mark) => (mark === ',' ? group : decimal));
}

/** An amount in cents as the language writes it, with its currency's code or sign after it. */
function money(locale: Exclude<Locale, 'en'>, plain: string, code: string): string {
  return `${marked(locale, english(Number(plain), 2, 2))}\u00a0${CURRENCY_SIGNS[code] ?? code}`;
}

/** A USD amount as the language writes it: 'USD $12.50' in English (SPEC.md section 9). */
export function formatUsdIn(locale: Locale, amount: number | string): string {
  let rounded: string;
  try {
    rounded = roundMoney(amount);
  } catch {
    return String(amount);
  }
  return locale === 'en' ? `USD $${rounded}` : money(locale, rounded, 'USD');
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
  if (locale !== 'en') return money(locale, text, currency.code);
  const sign = CURRENCY_SIGNS[currency.code];
  const digits = english(Math.abs(Number(text)), 2, 2);
  return sign ? `${text.startsWith('-') ? '-' : ''}${sign}${digits}` : `${currency.code} ${text.startsWith('-') ? '-' : ''}${digits}`;
}

/**
 * An amount of money without its unit, to 2 decimals, as the language writes it: '1234.50'
 * in English (as SPEC.md's screens write a balance), '1.234,50' in az, '1 234,50' in ru.
 */
export function formatAmountIn(locale: Locale, amount: number | string): string {
  let rounded: string;
  try {
    rounded = roundMoney(amount);
  } catch {
    return String(amount);
  }
  return locale === 'en' ? rounded : marked(locale, english(Number(rounded), 2, 2));
}

/** A signed change in USD: '+$600.00' and '-$5.00' in English, '+600,00 USD' in the others. */
export function formatSignedUsdIn(locale: Locale, amount: string): string {
  if (locale !== 'en') return formatSignedIn(locale, amount, 'USD');
  return amount.startsWith('-') ? `-$${amount.slice(1)}` : `+$${amount}`;
}

/** A signed change with its unit after it: '+2.50 USD', '-40.00 USD' ('+2,50 USD' in az and ru). */
export function formatSignedIn(locale: Locale, amount: string, unit: string): string {
  const negative = amount.startsWith('-');
  return `${negative ? '-' : '+'}${formatAmountIn(locale, negative ? amount.slice(1) : amount)} ${unit}`;
}

/** A count or decimal as the language writes it (grouping, decimal mark). */
export function formatNumberIn(locale: Locale, value: number | string, maximumFractionDigits = 2): string {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return String(value);
  return marked(locale, english(number, 0, maximumFractionDigits));
}

function toDate(when: When): Date | null {
  if (!when) return null;
  const date = when instanceof Date ? when : new Date(when);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A moment in the language, in UTC: 'YYYY-MM-DD HH:MM UTC' in English, '29.11.2026 07:05 UTC' in the others. */
export function formatTimeIn(locale: Locale, when: When): string {
  const date = locale === 'en' ? null : toDate(when);
  if (!date) return formatTime(when);
  const iso = date.toISOString();
  return `${formatDayIn(locale, date)} ${iso.slice(11, 16)} UTC`;
}

/** A UTC calendar day in the language: 'YYYY-MM-DD' in English, '29.11.2026' in the others. */
export function formatDayIn(locale: Locale, when: When): string {
  const date = locale === 'en' ? null : toDate(when);
  if (!date) return formatDay(when);
  const [year, month, day] = date.toISOString().slice(0, 10).split('-');
  return `${day}.${month}.${year}`;
}

/** A UTC calendar day without its year (a chart's axis): 'MM-DD' in English, 'DD.MM' in the others. */
export function formatMonthDayIn(locale: Locale, when: When): string {
  const day = formatDayIn(locale, when);
  return locale === 'en' ? day.slice(5) : day.slice(0, 5);
}
