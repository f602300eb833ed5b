import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * One chunk for the app's own start (main.tsx's static imports, React's chunk aside):
 * the modules every screen runs before it draws anything. Left to the bundler they are a
 * dozen small chunks (one per set of screens sharing them), so a client-drawn screen (the
 * pay page) asked for about thirty files before its first paint, each a request of its
 * own over a phone's few connections. These modules load on every screen anyway: grouped,
 * no screen loads more code than before, only in fewer files.
 *
 * `test` is the codeSplitting group's test; the plugin fills what it tests against once
 * the module graph is known (buildEnd), before the chunks are made.
 */
export function appStartChunk(srcDir: string): { plugin: Plugin; test: (id: string) => boolean } {
  const start = new Set<string>();
  const entry = path.join(srcDir, 'main.tsx');
  const plugin: Plugin = {
    name: 'shop:app-start-chunk',
    apply: 'build',
    buildStart() {
      start.clear();
    },
    buildEnd(error) {
      if (error) return;
      const closure = (root: string): Set<string> => {
        const seen = new Set<string>();
        const visit = (id: string) => {
          const info = seen.has(id) ? null : this.getModuleInfo(id);
          if (!info) return;
          seen.add(id);
          for (const imported of info.importedIds) visit(imported);
        };
        visit(root);
        return seen;
      };
      // What index.html's script (boot.ts) runs itself stays in its chunk: grouped, it
      // would bring the whole group into the page before its first paint.
      const boot = closure(path.join(srcDir, 'boot.ts'));
      // Only in the build that has the app (the server bundle's has no main.tsx).
      for (const id of closure(entry)) if (!boot.has(id)) start.add(id);
      // main.tsx stays the app's own chunk (route-preloads.ts and boot.ts name it).
      start.delete(entry);
    },
  };
  // Virtual modules (Vite's preload helper) are added to boot.ts's chunk later than this
  // graph shows: grouped, boot.ts would import the group for them.
  return { plugin, test: (id) => start.has(id) && !id.startsWith('\0') && !id.endsWith('.css') };
}
