import { describe, expect, it } from 'vitest';
import { LOCALES } from '@shop/core/contract';

/**
 * The catalogues are complete: every area has each locale, each locale has exactly the
 * English catalogue's keys, a message fills in the same values as its English one, and a
 * plural names every form its language has (Russian: one, few, many, other).
 */
const sources = import.meta.glob<string>('./catalogs/*/*.json', { eager: true, query: '?raw', import: 'default' });

type Catalog = Record<string, string>;
const catalogs = new Map<string, Map<string, Catalog>>();
for (const [file, text] of Object.entries(sources)) {
  const [, area = '', locale = ''] = /\.\/catalogs\/([a-z]+)\/([a-z]{2})\.json$/.exec(file) ?? [];
  const byLocale = catalogs.get(area) ?? new Map<string, Catalog>();
  byLocale.set(locale, JSON.parse(text) as Catalog);
  catalogs.set(area, byLocale);
}

/** The names of the values a message fills in: {name}, {count, plural, ...}. */
const argumentsOf = (message: string) => new Set([...message.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((m) => m[1]));

/** The plural forms each plural in a message names. */
const pluralForms = (message: string) => [...message.matchAll(/\{\s*\w+\s*,\s*plural\s*,((?:[^{}]|\{[^{}]*\})*)\}/g)].map((m) => new Set([...(m[1] ?? '').matchAll(/(\w+)\s*\{/g)].map((f) => f[1])));

describe('the message catalogues', () => {
  it('has the shop, auth, account and admin areas, each in every locale', () => {
    expect([...catalogs.keys()].sort()).toEqual(['account', 'admin', 'auth', 'shop']);
    for (const [area, byLocale] of catalogs) expect([...byLocale.keys()].sort(), area).toEqual([...LOCALES].sort());
  });

  for (const [area, byLocale] of catalogs) {
    const english = byLocale.get('en') ?? {};
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      it(`${area}/${locale} has every English key and no other, each filling in the same values`, () => {
        const catalog = byLocale.get(locale) ?? {};
        expect(Object.keys(catalog).filter((key) => !(key in english)), 'keys English does not have').toEqual([]);
        expect(Object.keys(english).filter((key) => !(key in catalog)), 'keys missing').toEqual([]);
        for (const [key, message] of Object.entries(english)) {
          expect(argumentsOf(catalog[key] ?? ''), `${key}'s values`).toEqual(argumentsOf(message));
          expect(catalog[key]?.trim(), `${key} is empty`).toBeTruthy();
        }
      });
    }
    for (const locale of LOCALES) {
      it(`${area}/${locale}'s plurals name every form the language has`, () => {
        const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
        for (const [key, message] of Object.entries(byLocale.get(locale) ?? {})) {
          for (const forms of pluralForms(message)) expect([...forms].sort(), `${key}`).toEqual(expect.arrayContaining([...needed].sort()));
        }
      });
    }
  }
});
