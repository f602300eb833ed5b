import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Rollup } from 'vite';
import { pages } from './src/app/pages.ts';
import { routePreloads } from './route-preloads.ts';

const srcDir = fileURLToPath(new URL('./src/', import.meta.url));

type Chunk = Pick<Rollup.OutputChunk, 'type' | 'fileName' | 'isEntry' | 'imports' | 'facadeModuleId'>;
const chunk = (fileName: string, module: string | null, imports: string[] = [], isEntry = false): Chunk => ({
  type: 'chunk',
  fileName,
  isEntry,
  imports,
  facadeModuleId: module && path.join(srcDir, module),
});

/** The build's bundle as the plugin sees it: index.html's script (boot.ts), the app, and a chunk per screen. */
function bundle(bootImports: string[]): Record<string, Chunk> {
  const chunks = [chunk('assets/boot.js', 'boot.ts', bootImports, true), chunk('assets/app.js', 'main.tsx', ['assets/react.js']), chunk('assets/react.js', null)];
  for (const [i, page] of pages.entries()) chunks.push(chunk(`assets/screen-${i}.js`, page.module, ['assets/app.js']));
  return Object.fromEntries(chunks.map((c) => [c.fileName, c]));
}

/** Runs the plugin's generateBundle on `files`; what it emitted, or the build error it raised. */
function generate(files: Record<string, Chunk>): { emitted: { fileName: string; source: string }[] } {
  const plugin = routePreloads(srcDir);
  const emitted: { fileName: string; source: string }[] = [];
  const context = {
    error: (message: string) => {
      throw new Error(message);
    },
    emitFile: (file: { fileName: string; source: string }) => emitted.push(file),
  };
  (plugin.generateBundle as (this: unknown, options: unknown, bundle: unknown) => void).call(context, {}, files);
  return { emitted };
}

describe('route-preloads (the web build)', () => {
  it("names each screen's chunks with the app's, less what index.html loads itself", () => {
    const { emitted } = generate(bundle(['assets/react.js']));
    const screens = JSON.parse(emitted[0]!.source) as { path: string; files: string[] }[];
    const home = screens.find((screen) => screen.path === '/');
    expect(home?.files).toEqual([`/assets/app.js`, `/assets/screen-${pages.findIndex((page) => page.path === '')}.js`]);
  });

  it("fails the build when index.html's script would load the app's code before the first paint", () => {
    expect(() => generate(bundle(['assets/app.js']))).toThrow("index.html's script imports the app's chunk (assets/app.js) statically");
    // Through another chunk it imports, too.
    const files = bundle(['assets/shared.js']);
    files['assets/shared.js'] = chunk('assets/shared.js', null, ['assets/app.js']);
    expect(() => generate(files)).toThrow(/imports the app's chunk/);
  });
});
