import { readFile } from 'node:fs/promises';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

/** A catalogue of the web app: src/i18n/catalogs/<area>/<locale>.json. */
export const CATALOG_FILE = /[\\/]src[\\/]i18n[\\/]catalogs[\\/][a-z]+[\\/][a-z]{2}\.json$/;

/**
 * Compiles the web app's message catalogues (ICU MessageFormat, one JSON file per area and
 * locale) with Lingui's compiler when the build, the dev server or the tests load them:
 * the app's `t` (src/i18n/i18n.ts) gets messages it only has to fill in, and the browser
 * never loads a MessageFormat parser (docs/decisions.md, "The shop's languages"). A message
 * that does not parse fails the build, naming its file and key.
 */
export function i18nCatalogs(): Plugin {
  return {
    name: 'shop:i18n-catalogs',
    enforce: 'pre',
    async load(id) {
      // Only the catalogue itself: `?raw` (the catalogues' own test) reads the source.
      if (id.includes('?') || !CATALOG_FILE.test(id)) return null;
      const file = id;
      const source = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
      const compiled: Record<string, unknown> = {};
      for (const [key, message] of Object.entries(source)) {
        try {
          compiled[key] = compileMessage(message);
        } catch (error) {
          throw new Error(`${file}: message '${key}' is not ICU MessageFormat: ${(error as Error).message}`);
        }
        const unwritten = unsupported(compiled[key]);
        if (unwritten) throw new Error(`${file}: message '${key}' uses ${unwritten}, which the app's t (src/i18n/i18n.ts) does not write: format the value before passing it`);
      }
      // Still JSON: Vite's own JSON plugin makes it a module.
      return JSON.stringify(compiled);
    },
  };
}

/**
 * What a compiled message asks of `t` that it does not do: a `{n, number}`, `{d, date}` or
 * `{t, time}` argument (values come formatted: lib/format.ts) or a plural's `offset:`.
 * Null when `t` writes it as Lingui's runtime would.
 */
function unsupported(message: unknown): string | null {
  if (!Array.isArray(message)) return null;
  for (const token of message as unknown[]) {
    if (!Array.isArray(token) || token.length < 2) continue;
    const [, type, cases] = token as [string, string, Record<string, unknown> | undefined];
    if (type !== 'plural' && type !== 'select' && type !== 'selectordinal') return `a '${type}' argument`;
    if (cases?.offset !== undefined && cases.offset !== 0) return "a plural's offset";
    for (const inner of Object.values(cases ?? {})) {
      const found = unsupported(inner);
      if (found) return found;
    }
  }
  return null;
}
