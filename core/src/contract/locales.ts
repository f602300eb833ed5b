import { z } from 'zod';

/**
 * The languages the shop speaks, and the currencies it can show prices in besides USD:
 * the one home of both lists. The api picks a visitor's language (the cookie, the
 * account's choice, then Accept-Language: api/src/middleware/locale.ts), the web app
 * draws in it (web/src/i18n), the worker writes e-mails in the recipient's.
 * Browser-safe: plain values in, plain values out.
 */
export const LOCALES = ['en', 'az', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const localeSchema = z.enum(LOCALES);

/** PUT /api/users/profile/locale: the language the signed-in user chose. */
export const localeBody = z.object({ locale: localeSchema });

/** The cookie that remembers a visitor's language (a year; readable by the page). */
export const LOCALE_COOKIE = 'shop_locale';
/** The cookie that remembers the currency a visitor shows prices in ('USD' or a display currency). */
export const CURRENCY_COOKIE = 'shop_currency';

/** Each language by its own name, as the footer's switch lists it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', az: 'Azərbaycan', ru: 'Русский' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * A currency prices may be shown in, at a configured rate (DISPLAY_CURRENCIES=AZN:1.70):
 * shown only. Orders, quotes and settlement stay in USD and the paid asset.
 */
export const displayCurrencyJson = z.object({
  /** ISO 4217 code: 'AZN'. */
  code: z.string().regex(/^[A-Z]{3}$/),
  /** How many of it one US dollar buys, as configured (a decimal string: '1.70'). */
  perUsd: z.string().regex(/^\d+(\.\d+)?$/),
  /** The day the rate is from (YYYY-MM-DD), stated beside the prices it converts. */
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export type DisplayCurrency = z.infer<typeof displayCurrencyJson>;

/**
 * DISPLAY_CURRENCIES: comma-separated `CODE:RATE` or `CODE:RATE:YYYY-MM-DD` (the rate's
 * day; without it, `today`, the day the shop started with it). Throws on a malformed
 * entry, so a bad configuration stops the shop at start rather than showing wrong prices.
 */
export function parseDisplayCurrencies(value: string | undefined, today: string): DisplayCurrency[] {
  if (!value?.trim()) return [];
  return value.split(',').map((entry) => {
    const [code = '', perUsd = '', asOf = today, ...rest] = entry.trim().split(':');
    const parsed = displayCurrencyJson.safeParse({ code: code.toUpperCase(), perUsd, asOf });
    if (rest.length || !parsed.success || Number(perUsd) <= 0 || code.toUpperCase() === 'USD') {
      throw new Error(`DISPLAY_CURRENCIES: '${entry}' is not CODE:RATE or CODE:RATE:YYYY-MM-DD (a positive rate, not USD)`);
    }
    return parsed.data;
  });
}
