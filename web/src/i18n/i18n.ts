import { DEFAULT_LOCALE, formatNumberIn, type Locale } from '@shop/core/contract';
import type shopEn from './catalogs/shop/en.json';
import type authEn from './catalogs/auth/en.json';
import type accountEn from './catalogs/account/en.json';
import type adminEn from './catalogs/admin/en.json';

/**
 * The web app's words: one catalogue per area and locale (catalogs/<area>/<locale>.json,
 * ICU MessageFormat, compiled by the build with Lingui's compiler: i18n-catalogs.ts), each a
 * chunk of its own, so a page loads only its own locale's messages and only its areas:
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

/**
 * A message as the build compiles it (Lingui's compiled form): a text, or a list of texts,
 * values (`[name]`) and plurals or selects (`[name, 'plural', { one: [...], other: [...] }]`,
 * an exact `=2` case under the key '2'). In a plural's case, '#' stands for the count.
 */
type Compiled = string | readonly Token[];
type Token = string | readonly [name: string, type?: 'plural' | 'selectordinal' | 'select', cases?: Readonly<Record<string, Compiled>>];
type Catalog = Record<string, Compiled>;

const catalogs = import.meta.glob<Catalog>('./catalogs/*/*.json', { import: 'default' });
const messages = new Map<Locale, Catalog>();
const loaded = new Map<string, Promise<void>>();
let active: Locale | undefined;
let onMissing = (key: string, _locale: Locale): string => key;

/** Loads an area's catalogue in `locale` (once), so its messages can be drawn. */
export function loadCatalog(area: CatalogArea, locale: Locale = activeLocale()): Promise<void> {
  const key = `${area}/${locale}`;
  let loading = loaded.get(key);
  if (!loading) {
    const importCatalog = catalogs[`./catalogs/${key}.json`];
    if (!importCatalog) throw new Error(`no catalogue ${key}`);
    loading = importCatalog().then((catalog) => void messages.set(locale, { ...messages.get(locale), ...catalog }));
    loading.catch(() => loaded.delete(key));
    loaded.set(key, loading);
  }
  return loading;
}

/** Loads the `shop` catalogue (and any other areas) in `locale` and draws in it from now on. */
export async function startLocale(locale: Locale, areas: readonly CatalogArea[] = []): Promise<void> {
  await Promise.all(['shop' as const, ...areas].map((area) => loadCatalog(area, locale)));
  active = locale;
}

/** The language the app draws in ('en' before any is chosen). */
export function activeLocale(): Locale {
  return active ?? DEFAULT_LOCALE;
}

/** What `t` gives for a key its language's loaded catalogues lack (the key itself; the tests throw). */
export function whenMissing(handler: (key: string, locale: Locale) => string): void {
  onMissing = handler;
}

/** A message of the catalogue in the active language, its `{placeholders}` filled from `values`. */
export function t(key: MessageKey, values: MessageValues = {}): string {
  const locale = activeLocale();
  const message = messages.get(locale)?.[key];
  return message === undefined ? onMissing(key, locale) : fill(message, values, locale);
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The case of a plural for `count`: an exact one (`=2`), else the language's form of it (Intl's rules), else `other`. */
function pluralCase(cases: Readonly<Record<string, Compiled>>, count: number, locale: Locale, type: 'plural' | 'selectordinal'): Compiled | undefined {
  const rulesKey = `${locale}:${type}`;
  let rules = pluralRules.get(rulesKey);
  if (!rules) pluralRules.set(rulesKey, (rules = new Intl.PluralRules(locale, { type: type === 'plural' ? 'cardinal' : 'ordinal' })));
  return ownCase(cases, String(count)) ?? ownCase(cases, rules.select(count)) ?? cases.other;
}

/** A case the message names itself (never one of Object's own members: a value 'constructor' picks `other`). */
const ownCase = (cases: Readonly<Record<string, Compiled>>, name: string) => (Object.hasOwn(cases, name) ? cases[name] : undefined);

/**
 * A compiled message written out: its values filled in, a plural's or select's case chosen,
 * and a plural's '#' written as the language writes numbers (locale-format.ts, as the
 * server's page writes it: Intl in a browser may lack the language's data).
 */
function fill(message: Compiled, values: MessageValues, locale: Locale, count?: number): string {
  if (typeof message === 'string') return message;
  let text = '';
  for (const token of message) {
    if (typeof token === 'string') {
      text += token === '#' && count !== undefined ? formatNumberIn(locale, count) : token;
      continue;
    }
    const [name, type, cases = {}] = token;
    const value = values[name];
    if (!type) text += value ?? '';
    else if (type === 'select') text += fill(ownCase(cases, String(value)) ?? cases.other ?? '', values, locale);
    else {
      const n = Number(value);
      text += fill(pluralCase(cases, n, locale, type) ?? '', values, locale, n);
    }
  }
  return text;
}
