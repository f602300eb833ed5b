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

/** The app's drawing of an icon from its data (src/components/ui/lucide-icon.tsx). */
const DRAW_ICON = '/src/components/ui/lucide-icon.tsx';

/**
 * `import { Star, X } from 'lucide-react'` in the app's modules becomes, for each icon,
 * its data from the icon's own module, drawn by the app's `lucideIcon`:
 * - each icon's own module, not the package's index: the bundler drops the unused icons
 *   either way; what this changes is the module graph the build's chunk groups read
 *   (chunk-groups.ts): through the index every icon any screen uses would be a static
 *   import of the home page's, so the icons stayed out of the groups, each a file of its
 *   own (3 to 6 small requests on a page). A group takes exactly the icons its screens import;
 * - its data, not its component: lucide-react's component builds the same markup through
 *   an icon builder of 3.2 kB (1.2 kB gzipped) for options the app never sets. The icon's
 *   module still makes its component, a call the build declares pure (vite.config.ts), so
 *   it is dropped.
 * The tests and the dev server load it too: they draw what the build ships.
 */
export function lucideIconImports(): Plugin {
  let modules: Map<string, string> | undefined;
  return {
    name: 'shop:lucide-icon-imports',
    enforce: 'pre',
    transform: {
      filter: { id: /[\\/]web[\\/]src[\\/].*\.tsx?$/, code: "from 'lucide-react'" },
      handler(code) {
        modules ??= iconModules();
        const found = modules;
        let drawn = false;
        const rewritten = code.replace(LUCIDE_IMPORT, (whole, list: string) => {
          const names = list.split(',').map((n) => n.trim()).filter(Boolean);
          const own = names.filter((n) => found.has(n));
          if (own.length !== names.length) return whole; // a type or a helper: left as it is
          drawn = true;
          return own
            .map((n) => `import { __iconData as __lucide_${n} } from ${JSON.stringify(found.get(n))}; const ${n} = /* @__PURE__ */ __lucideIcon(__lucide_${n});`)
            .join(' ');
        });
        if (!drawn) return null;
        // On the first line, before it: the file's lines (and its stack traces) stay where they are.
        return { code: `import { lucideIcon as __lucideIcon } from ${JSON.stringify(DRAW_ICON)}; ${rewritten}`, map: null };
      },
    },
  };
}
