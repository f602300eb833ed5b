import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../scripts/lib/paths.ts';

/**
 * The web app's catalogues as a journey reads them (web/src/i18n/catalogs): what a
 * screen says in a language, found by its English words, and the English left on a
 * screen drawn in another language.
 */
type Catalogue = Record<string, string>;
type Area = 'shop' | 'auth' | 'account' | 'admin';
const AREAS: readonly Area[] = ['shop', 'auth', 'account', 'admin'];

const read = (area: Area, locale: string): Catalogue =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'web/src/i18n/catalogs', area, `${locale}.json`), 'utf8')) as Catalogue;

/** The message a screen shows in `locale` where English shows `english` (a message of any area, without values). */
export function say(locale: string, english: string): string {
  for (const area of AREAS) {
    const key = Object.entries(read(area, 'en')).find(([, message]) => message === english)?.[0];
    const said = key && read(area, locale)[key];
    if (said) return said;
  }
  throw new Error(`no message reads '${english}' in the English catalogues`);
}

/** The message of `key` in `locale` (where two messages read alike in English). */
export function sayKey(locale: string, key: string): string {
  for (const area of AREAS) {
    const said = read(area, locale)[key];
    if (said) return said;
  }
  throw new Error(`no message '${key}' in the ${locale} catalogues`);
}

/** A message with values as a pattern: `{amount}` matches anything. */
export function sayPattern(locale: string, english: string): RegExp {
  const message = say(locale, english);
  const parts = message.split(/\{[^{}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`);
}

/** The texts of a message outside its `{values}` (plural branches included), 6 characters or more. */
function fixedParts(message: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of message) {
    if (char === '{') depth += 1;
    if (depth === 0) current += char;
    else if (current) {
      parts.push(current);
      current = '';
    }
    if (char === '}') depth -= 1;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part.length >= 6 && /[A-Za-z]{3}/.test(part));
}

/**
 * English messages of `areas` still on the page (its text, and the labels a screen reader
 * reads): a whole message as a text or label of its own, or the fixed words of a message
 * with values inside one. Messages a language writes as English does (a name, a symbol)
 * are not looked for. A key of any area drawn as a text (its message not loaded) is left too.
 */
export async function englishLeft(page: Page, locale: string, areas: readonly Area[]): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.replace(/\s+/g, ' ').trim();
      if (text) found.push(text);
    }
    for (const element of Array.from(document.body.querySelectorAll('[aria-label], [placeholder], [title], [alt]'))) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    found.push(document.title);
    return found;
  });
  const left = new Set<string>();
  for (const area of areas) {
    const english = read(area, 'en');
    const translated = read(area, locale);
    for (const [key, message] of Object.entries(english)) {
      if (translated[key] === message) continue;
      const whole = !message.includes('{');
      for (const text of texts) {
        if (whole ? text === message && /[A-Za-z]{3}/.test(message) : fixedParts(message).some((part) => text.includes(part))) left.add(`${key}: '${text}'`);
      }
    }
  }
  // A message the screen's loaded catalogues lack is drawn as its key.
  const shown = new Set(texts);
  for (const area of AREAS) for (const key of Object.keys(read(area, 'en'))) if (shown.has(key)) left.add(`${key}: drawn as its key`);
  return [...left];
}
