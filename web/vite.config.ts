import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { SERVER_ENTRY_FILE } from '../core/src/contract/page-render.ts';
import { routePreloads } from './route-preloads.ts';
import { staticClosureGroup } from './chunk-groups.ts';
import { lucideIconImports } from './lucide-icons.ts';
import { reactRouterProduction } from './react-router-build.ts';
import { i18nCatalogs } from './i18n-catalogs.ts';

const webDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * react-query's mutations, which the home page never makes: its index module imports
 * them, so the app group would take them (0.7 kB gzipped) for the screens that do.
 */
const MUTATIONS = /@tanstack[\\/](react-query|query-core)[\\/]build[\\/]modern[\\/](useMutation|mutationObserver)\.js$/;
/**
 * The contract's modules the home page runs (the words' formats, money, the locales): plain
 * functions and constants, no zod schema, so the app's group takes them (their own chunks
 * were two more files, each gzipped alone).
 */
const CONTRACT = /[\\/]core[\\/]src[\\/]contract[\\/]/;
const APP_CONTRACT = /[\\/]core[\\/]src[\\/]contract[\\/](index|locale-format|locales|money|tokens|time)\.ts$/;
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 5000}`;

// The browser talks to one origin, so the session cookie (SameSite=Lax) works in dev
// exactly as it does when the api serves the built app.
const proxy: Record<string, ProxyOptions> = {
  '/api': { target: apiTarget, xfwd: true },
  '/uploads': { target: apiTarget },
  '/admin/queues': { target: apiTarget, xfwd: true },
};

/** A plugin for the browser's build only (not the server bundle's). */
const clientOnly = (plugin: Plugin): Plugin => ({ ...plugin, applyToEnvironment: (environment) => environment.name === 'client' });

/**
 * The server bundle (src/entry-server.tsx: the public pages drawn by the api), built by the
 * same `vite build` after the browser's build, into `.server/` of the same folder (a dot
 * folder: never served as a file). Self-contained (`noExternal`): the api's image runs it
 * without the web app's packages.
 */
function serverBundle(): Plugin {
  let outDir = '';
  return {
    name: 'shop:server-bundle',
    config(config) {
      outDir = path.resolve(config.root ?? webDir, config.build?.outDir ?? 'dist');
    },
    configEnvironment(name) {
      if (name !== 'ssr') return;
      return {
        resolve: { noExternal: true },
        build: {
          outDir: path.join(outDir, path.dirname(SERVER_ENTRY_FILE)),
          emptyOutDir: true,
          copyPublicDir: false,
          manifest: false,
          rolldownOptions: {
            input: { [path.basename(SERVER_ENTRY_FILE, '.js')]: path.join(webDir, 'src/entry-server.tsx') },
            // One file: the browser's chunk groups are not the server's (split like the
            // browser's, its chunks imported each other in a cycle React Router's CommonJS
            // build could not start in).
            output: { entryFileNames: '[name].js', codeSplitting: false },
          },
        },
      };
    },
  };
}

export default defineConfig({
  // `vite build` builds both environments: the browser's app, then the server bundle.
  builder: {},
  environments: { client: {}, ssr: {} },
  // Explicit root so the config behaves the same when run from the repository root.
  root: webDir,
  plugins: [
    i18nCatalogs(),
    react(),
    reactRouterProduction(),
    lucideIconImports(),
    tailwindcss(),
    clientOnly(routePreloads(fileURLToPath(new URL('./src', import.meta.url)))),
    serverBundle(),
    // Every text file of the build also as .br and .gz, compressed once at build time at
    // the highest levels; the api sends the one the browser accepts (api/src/app.ts).
    clientOnly(compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|html|svg|json|txt)$/, threshold: 1024 })),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // No list of each dynamic import's chunks in the app's code (they were 2 kB of the
    // home page's 110 kB, gzipped): a first page names its screen's chunks in its HTML
    // (route-preloads.json, api/src/web-app.ts), and a screen a link opens asks for its
    // chunks from the same list (src/app/screen-preloads.ts).
    modulePreload: false,
    // One stylesheet, linked by index.html: a chunk then carries no stylesheet for Vite to
    // load with a dynamic import (the app's code had one list more per import for it).
    cssCodeSplit: false,
    rolldownOptions: {
      treeshake: {
        // The shared contract (@shop/core/contract) builds zod schemas at module level,
        // which a bundler must otherwise keep. The browser uses only its types and money
        // helpers, so its modules are declared pure and zod stays out of the bundle.
        moduleSideEffects: [{ test: /[\\/]core[\\/]src[\\/]contract[\\/]/, sideEffects: false }],
        // lucide-react's icon modules make their component at module level; the app draws
        // icons from their data (lucide-icons.ts), so those calls are dropped.
        manualPureFunctions: ['z', 'createLucideIcon'],
      },
      output: {
        codeSplitting: {
          // A group takes only what its test or name picks, not the modules these import:
          // else the 'app' group below would take the module preload helper, which
          // index.html's script imports too, and index.html would load the app at once.
          includeDependenciesRecursively: false,
          // React and the router change rarely, so they get their own long-cached chunk
          // (first: a module both groups match goes to the higher priority).
          // Only named packages: a catch-all node_modules group would pull lazy-only
          // libraries (the wallet code of the pay page) into the first load.
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
              priority: 2,
            },
            {
              // What the home page runs, in one file instead of some twenty small ones
              // each gzipped alone (-5.5 kB gzipped, 11 files instead of 25): the app's
              // (main.tsx) static imports, which every page runs, and the home screen's.
              // Other pages get the home screen's few shared parts with the app's.
              // Never the wallet code or the signed-in menus: those are dynamic imports; nor
              // what index.html's script (boot.ts) imports, or it would load it all at once.
              // The contract (core/src) and zod stay with the automatic split: captured,
              // their unused exports were kept (+90 kB raw). The icons are imported each
              // from its own module (lucide-icons.ts): the group takes the ones it uses.
              debugName: 'app',
              name: staticClosureGroup({
                name: 'app',
                roots: [path.join(webDir, 'src/main.tsx'), path.join(webDir, 'src/features/products/routes/home.tsx')],
                apart: [path.join(webDir, 'src/boot.ts')],
                exclude: (id) => (/node_modules[\\/]zod[\\/]|lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$|[\\/]core[\\/]src[\\/]/.test(id) && !APP_CONTRACT.test(id)) || MUTATIONS.test(id),
                // index.html's script takes one name of the contract (page-modules.ts), not in APP_CONTRACT.
                pure: (id) => CONTRACT.test(id),
              }),
              priority: 1,
            },
            {
              // What the pay page draws first, beyond the app: its screen's static imports,
              // in one file instead of a dozen (each a request before its first paint).
              // Its wallet code is a dynamic import: it stays apart, loaded on this page only.
              debugName: 'pay',
              name: staticClosureGroup({
                name: 'pay',
                roots: [path.join(webDir, 'src/features/pay/routes/pay.tsx')],
                apart: [path.join(webDir, 'src/boot.ts')],
                exclude: (id) => /node_modules[\\/]zod[\\/]|lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$|[\\/]core[\\/]src[\\/]/.test(id),
              }),
              priority: 0,
            },
          ],
        },
      },
    },
  },
});
