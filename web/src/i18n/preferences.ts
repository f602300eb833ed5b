import { api } from '@/lib/api-client';
import { getUserInfo } from '@/stores/auth-store';
import { CURRENCY_COOKIE, LOCALE_COOKIE, isLocale, type Locale } from '@shop/core/contract';

/**
 * The visitor's language and display currency, remembered in cookies the api reads too
 * (it draws its pages in them: api/src/middleware/locale.ts). A signed-in visitor's
 * language is kept on the account as well, so e-mails and another browser follow it.
 * Read once when the app starts: a change reloads the page.
 */
const YEAR_SECONDS = 365 * 24 * 3600;

function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const found = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : undefined;
}

function writeCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax`;
}

/** The language the page was drawn in (`<html lang>`, set by the api), or undefined. */
export function pageLocale(): Locale | undefined {
  const lang = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return isLocale(lang) ? lang : undefined;
}

let displayCurrency = 'USD';

/** The currency the visitor shows prices in besides USD ('USD': none). */
export function chosenCurrency(): string {
  return displayCurrency;
}

/** Sets the display currency the app draws in (the server's render, the browser's start). */
export function startCurrency(code?: string): void {
  displayCurrency = code ?? readCookie(CURRENCY_COOKIE) ?? 'USD';
}

/**
 * Remembers a language (on the account too when signed in: the api sets the cookie then)
 * and reloads the page in it. Should the account not take it, the browser still does.
 */
export async function chooseLocale(locale: Locale): Promise<void> {
  writeCookie(LOCALE_COOKIE, locale);
  if (getUserInfo()) await api.put('/api/users/profile/locale', { locale }).catch(() => undefined);
  window.location.reload();
}

/** Remembers a display currency ('USD' for none) and reloads the page with it. */
export function chooseCurrency(code: string): void {
  writeCookie(CURRENCY_COOKIE, code);
  window.location.reload();
}
