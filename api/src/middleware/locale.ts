import type { Request, Response } from 'express';
import type { AppConfig } from '@shop/core';
import { CURRENCY_COOKIE, DEFAULT_LOCALE, LOCALES, LOCALE_COOKIE, isLocale, type DisplayCurrency, type Locale } from '@shop/core/contract';

/**
 * The language a request is answered in: the visitor's choice (the footer's switch
 * stores it in LOCALE_COOKIE; signing in sets it from the account), else the first of
 * the shop's languages the browser's Accept-Language asks for, else English. The one
 * place the api decides it: the drawn pages, their `<html lang>`, and the errors and
 * e-mails a request causes.
 */
export function requestLocale(req: Request): Locale {
  const chosen = (req.cookies as Record<string, unknown> | undefined)?.[LOCALE_COOKIE];
  if (isLocale(chosen)) return chosen;
  const accepted = req.acceptsLanguages(...LOCALES);
  return isLocale(accepted) ? accepted : DEFAULT_LOCALE;
}

/**
 * The currency the visitor shows prices in besides USD (CURRENCY_COOKIE), when the shop
 * offers it (DISPLAY_CURRENCIES); 'USD' otherwise.
 */
export function requestCurrency(req: Request, offered: readonly DisplayCurrency[]): string {
  const chosen = (req.cookies as Record<string, unknown> | undefined)?.[CURRENCY_COOKIE];
  return typeof chosen === 'string' && offered.some((currency) => currency.code === chosen) ? chosen : 'USD';
}

/** Sets the language cookie (a year; the page reads it, so not httpOnly). */
export function rememberLocale(res: Response, config: Pick<AppConfig, 'cookieSecure'>, locale: Locale): void {
  res.cookie(LOCALE_COOKIE, locale, { sameSite: 'lax', secure: config.cookieSecure, path: '/', maxAge: 365 * 24 * 3600 * 1000 });
}
