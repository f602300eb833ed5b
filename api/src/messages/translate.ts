import type { Locale } from '@shop/core/contract';
import { az } from './az.ts';
import { EXACT, FIELD_EXACT, FIELD_TEMPLATES, TEMPLATES, type MessageCatalogue, type Translation } from './en.ts';
import { reconcileAz } from './reconcile-az.ts';
import { RECONCILE_EXACT, RECONCILE_TEMPLATES, type ReconcileCatalogue } from './reconcile-en.ts';
import { reconcileRu } from './reconcile-ru.ts';
import { ru } from './ru.ts';

/**
 * The api's answers to people in their language (issue 41): the error handler
 * (middleware/error-handler.ts) passes each English message through here with the
 * request's language. A message found by its exact text, else by a template (values kept,
 * a `{message}` in turn, a `{fragment}` as a field's problem); one not found stays English.
 * The admin's reconciliation report passes its findings through here too (reconcile-en.ts).
 */
type Catalogue = Omit<MessageCatalogue, 'exact' | 'templates'> & { exact: Record<string, string>; templates: Record<string, Translation> };

/** A language's messages with the reconciler's findings merged in: one lookup, one rule, for both. */
const merged = (messages: MessageCatalogue, findings: ReconcileCatalogue): Catalogue => ({
  ...messages,
  exact: { ...messages.exact, ...findings.exact },
  templates: { ...messages.templates, ...findings.templates },
});

const catalogues: Record<Exclude<Locale, 'en'>, Catalogue> = { az: merged(az, reconcileAz), ru: merged(ru, reconcileRu) };

type Compiled<K extends string> = { key: K; pattern: RegExp };

function compile<K extends string>(template: K): Compiled<K> {
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? `(?<${part.slice(1, -1)}>.+?)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { key: template, pattern: new RegExp(`^${source}$`, 's') };
}

// The api's own first: a finding's template is tried only on what none of them matched.
const templates = [...TEMPLATES, ...RECONCILE_TEMPLATES].map(compile);
const fieldTemplates = FIELD_TEMPLATES.map(compile);
const exact = new Set<string>([...EXACT, ...RECONCILE_EXACT]);
const fieldExact = new Set<string>(FIELD_EXACT);

function fill(translation: Translation, values: Record<string, string>): string {
  return typeof translation === 'function' ? translation(values) : translation.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

function byTemplate<K extends string>(list: Compiled<K>[], table: Record<K, Translation>, english: string, inner: (name: string, value: string) => string): string | null {
  for (const { key, pattern } of list) {
    const match = pattern.exec(english);
    if (!match?.groups) continue;
    const values = Object.fromEntries(Object.entries(match.groups).map(([name, value]) => [name, inner(name, value)]));
    const translation = table[key] as Translation | undefined;
    return translation === undefined ? null : fill(translation, values);
  }
  return null;
}

/** A field's problem ('is too long') in the language, or null when the catalogue has none. */
export function lookupFieldProblem(locale: Locale, english: string): string | null {
  if (locale === 'en') return english;
  const catalogue = catalogues[locale];
  if (fieldExact.has(english)) return catalogue.fieldExact[english as keyof MessageCatalogue['fieldExact']];
  return byTemplate(fieldTemplates, catalogue.fieldTemplates, english, (_name, value) => value);
}

/** A whole message in the language, or null when the catalogue has none. */
export function lookupMessage(locale: Locale, english: string, depth = 0): string | null {
  if (locale === 'en') return english;
  const catalogue = catalogues[locale];
  if (exact.has(english)) return catalogue.exact[english] ?? null;
  if (depth > 2) return null;
  return byTemplate(templates, catalogue.templates, english, (name, value) =>
    name === 'message' ? translateMessage(locale, value, depth + 1) : name === 'fragment' ? translateFieldProblem(locale, value) : value,
  );
}

export const translateMessage = (locale: Locale, english: string, depth = 0): string => lookupMessage(locale, english, depth) ?? english;
export const translateFieldProblem = (locale: Locale, english: string): string => lookupFieldProblem(locale, english) ?? english;

/**
 * A field's problem with the field's name, as validate.ts's fieldMessage words it in English
 * ('Password must be at least 8 characters'): the name from the catalogue's field names
 * (an unlisted one keeps `englishLabel`), then the problem.
 */
export function translateFieldMessage(locale: Locale, path: string, problem: string, englishLabel: string): string {
  if (locale === 'en') return englishLabel ? `${englishLabel} ${problem}` : problem;
  const catalogue = catalogues[locale];
  const text = translateFieldProblem(locale, problem);
  if (!path) return text;
  const parts = path.split('.').map((part) => (/^\d+$/.test(part) ? `#${Number(part) + 1}` : (catalogue.fields[part] ?? null)));
  const label = parts.every((p) => p !== null) ? parts.join(' ') : englishLabel;
  return catalogue.field(label, text);
}
