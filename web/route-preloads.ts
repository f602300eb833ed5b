import path from 'node:path';
import type { Plugin, Rollup } from 'vite';
// Imported by path, not as @shop/core: Vite loads its config's packages from node_modules
// as they are, and Node cannot run core's TypeScript; a relative file it bundles.
import { ROUTE_PRELOADS_FILE, type ScreenPreloads } from '../core/src/contract/route-preloads.ts';
import { pages } from './src/app/pages.ts';

/**
 * Writes `route-preloads.json`: for each screen in pages.ts, the app's chunk (main.tsx,
 * which index.html's script imports on demand), the screen's chunk and the chunks these
 * import, less what index.html already loads. What a screen loads later by
 * itself (the pay page's wallet code) is left out: it would share the phone's bandwidth
 * with the code the first paint needs. Without this a phone asks for a screen's
 * code only after the whole app has downloaded and run: a round trip more on every first
 * visit.
 */
export function routePreloads(srcDir: string): Plugin {
  return {
    name: 'shop:route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Rollup.OutputChunk>();
      for (const file of Object.values(bundle)) if (file.type === 'chunk') chunks.set(file.fileName, file);
      const staticClosure = (roots: string[]): Set<string> => {
        const seen = new Set<string>();
        const visit = (fileName: string) => {
          if (seen.has(fileName)) return;
          seen.add(fileName);
          for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
        };
        for (const root of roots) visit(root);
        return seen;
      };
      const entries = [...chunks.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName);
      const inIndexHtml = staticClosure(entries);
      const byModule = new Map<string, Rollup.OutputChunk>();
      for (const chunk of chunks.values()) if (chunk.facadeModuleId) byModule.set(path.normalize(chunk.facadeModuleId), chunk);

      // index.html's script (boot.ts) imports the app (main.tsx) on demand: every screen needs it.
      const app = byModule.get(path.join(srcDir, 'main.tsx'));
      if (!app) this.error('the build has no chunk for main.tsx');
      // A drawn page paints before the app's code is asked for (boot.ts): should a chunk
      // index.html loads import the app's statically (a group or an import that pulls it in),
      // every phone would fetch and run it all before the first paint.
      if (inIndexHtml.has(app.fileName)) this.error(`index.html's script imports the app's chunk (${app.fileName}) statically: it must load only on demand (boot.ts)`);

      const preloads: ScreenPreloads[] = pages.map((page) => {
        const chunk = byModule.get(path.join(srcDir, page.module));
        if (!chunk) this.error(`pages.ts names ${page.module}, but the build has no chunk for it`);
        const files = staticClosure([app.fileName, chunk.fileName]);
        return {
          path: `/${page.path}`,
          access: page.access,
          files: [...files].filter((file) => !inIndexHtml.has(file)).map((file) => `/${file}`),
          data: page.data ?? [],
          drawn: page.drawnOnServer === true,
        };
      });
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(preloads, null, 2)}\n` });
    },
  };
}
