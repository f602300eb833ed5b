import { setupI18n, type Messages } from '@lingui/core';
import { DEFAULT_LOCALE, isLocale, type Locale } from '@shop/core/contract';
import type shopEn from './catalogs/shop/en.json';
import type authEn from './catalogs/auth/en.json';
import type accountEn from './catalogs/account/en.json';
import type adminEn from './catalogs/admin/en.json';

/**
 * The web app's words: one catalogue per area and locale (catalogs/<area>/<locale>.json,
 * ICU MessageFormat, compiled by the build: i18n-catalogs.ts), each a chunk of its own, so
 * a page loads only its own locale's messages and only its areas:
 * - `shop`: what any page may show (the layout, the storefront's screens, shared
 *   components, lib/), loaded with the app;
 * - `auth`: signing in, registering, a password reset, a second factor (the step-up
 *   dialog loads it too) and a cashout's cancel link;
 * - `account`: the signed-in screens (pages.ts access 'signed-in'), and what the console
 *   shares with them (an order's statuses);
 * - `admin`: the admin console (access 'admin').
 * A screen's catalogues load with its module (app/router.tsx), before it draws: the home
 * page's JavaScript budget (bench/web.ts) counts `shop` only.
 *
 * The app draws in one language from its first render to the next page load: the footer's
 * switch stores the choice and reloads, so the server draws the new page in it too.
 */
export type CatalogArea = 'shop' | 'auth' | 'account' | 'admin';
export type MessageKey = keyof typeof shopEn | keyof typeof authEn | keyof typeof accountEn | keyof typeof adminEn;
export type MessageValues = Record<string, string | number>;

const catalogs = import.meta.glob<Messages>('./catalogs/*/*.json', { import: 'default' });

export const i18n = setupI18n({});

const loaded = new Map<string, Promise<void>>();

/** Loads an area's catalogue in `locale` (once), so its messages can be drawn. */
export function loadCatalog(area: CatalogArea, locale: Locale = activeLocale()): Promise<void> {
  const key = `${area}/${locale}`;
  let loading = loaded.get(key);
  if (!loading) {
    const importCatalog = catalogs[`./catalogs/${key}.json`];
    if (!importCatalog) throw new Error(`no catalogue ${key}`);
    loading = importCatalog().then((messages) => i18n.load(locale, messages));
    loading.catch(() => loaded.delete(key));
    loaded.set(key, loading);
  }
  return loading;
}

/** Loads the `shop` catalogue (and any other areas) in `locale` and draws in it from now on. */
export async function startLocale(locale: Locale, areas: readonly CatalogArea[] = []): Promise<void> {
  await Promise.all(['shop' as const, ...areas].map((area) => loadCatalog(area, locale)));
  if (i18n.locale !== locale) i18n.activate(locale);
}

/** The language the app draws in ('en' before any is chosen). */
export function activeLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE;
}

/** A message of the catalogue in the active language, its `{placeholders}` filled from `values`. */
export function t(key: MessageKey, values?: MessageValues): string {
  return i18n._(key, values);
}
