import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { routePreloads } from './route-preloads.ts';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 5000}`;

// The browser talks to one origin, so the session cookie (SameSite=Lax) works in dev
// exactly as it does when the api serves the built app.
const proxy: Record<string, ProxyOptions> = {
  '/api': { target: apiTarget, xfwd: true },
  '/uploads': { target: apiTarget },
  '/admin/queues': { target: apiTarget, xfwd: true },
};

export default defineConfig({
  // Explicit root so the config behaves the same when run from the repository root.
  root: webDir,
  plugins: [
    react(),
    tailwindcss(),
    routePreloads(fileURLToPath(new URL('./src', import.meta.url))),
    // Every text file of the build also as .br and .gz, compressed once at build time at
    // the highest levels; the api sends the one the browser accepts (api/src/app.ts).
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|html|svg|json|txt)$/, threshold: 1024 }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // The shared contract (@shop/core/contract) builds zod schemas at module level,
        // which a bundler must otherwise keep. The browser uses only its types and money
        // helpers, so its modules are declared pure and zod stays out of the bundle.
        moduleSideEffects: [{ test: /[\\/]core[\\/]src[\\/]contract[\\/]/, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          // React and the router change rarely, so they get their own long-cached chunk.
          // Only named packages: a catch-all node_modules group would pull lazy-only
          // libraries (the wallet code of the pay page) into the first load.
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
