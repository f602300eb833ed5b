import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** lucide-react's index (`export { default as Star, ... } from './icons/star.mjs'`): each name's module. */
function iconModules(): Map<string, string> {
  const index = path.join(path.dirname(require.resolve('lucide-react/package.json')), 'dist/esm/lucide-react.mjs');
  const modules = new Map<string, string>();
  for (const [, names = '', file = ''] of readFileSync(index, 'utf8').matchAll(/^export \{([^}]*)\} from '(\.\/icons\/[\w-]+\.mjs)';$/gm)) {
    for (const [, name] of names.matchAll(/default as (\w+)/g)) modules.set(name!, path.join(path.dirname(index), file));
  }
  return modules;
}

const LUCIDE_IMPORT = /^import \{([^}]*)\} from 'lucide-react';$/gm;

/**
 * `import { Star, X } from 'lucide-react'` in the app's modules becomes an import of each
 * icon's own module. The bundler drops the unused icons either way; what this changes is
 * the module graph the build's chunk groups read (chunk-groups.ts): through the package's
 * index every icon any screen uses would be a static import of the home page's, so the
 * icons stayed out of the groups, each a file of its own (3 to 6 small requests on a
 * page). Now a group takes exactly the icons its screens import.
 */
export function lucideIconImports(): Plugin {
  let modules: Map<string, string> | undefined;
  return {
    name: 'shop:lucide-icon-imports',
    apply: 'build',
    enforce: 'pre',
    transform: {
      filter: { id: /[\\/]web[\\/]src[\\/].*\.tsx?$/, code: "from 'lucide-react'" },
      handler(code) {
        modules ??= iconModules();
        const found = modules;
        const rewritten = code.replace(LUCIDE_IMPORT, (whole, list: string) => {
          const names = list.split(',').map((n) => n.trim()).filter(Boolean);
          const own = names.filter((n) => found.has(n));
          if (own.length !== names.length) return whole; // a type or a helper: left as it is
          return own.map((n) => `import ${n} from ${JSON.stringify(found.get(n))};`).join(' ');
        });
        return rewritten === code ? null : { code: rewritten, map: null };
      },
    },
  };
}
