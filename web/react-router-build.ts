import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** React Router's production build: its package's exports name only the development one. */
const productionDir = path.join(path.dirname(require.resolve('react-router/package.json')), 'dist/production');

/** A module-level React call the bundler cannot know to be pure: `var Link = React10.forwardRef(`. */
const REACT_CALL = /^var (\w+) = (React\d*\.(?:forwardRef|createContext|memo))\(/gm;
/** A module-level name for React's developer tools: `Link.displayName = "Link";`. */
const DISPLAY_NAME = /^\w+\.displayName = "[^"\n]*";\n/gm;

/**
 * The browser's and the server's builds use React Router's production build (the
 * development one, which its package always names, logs warnings meant for developers),
 * and let the bundler drop what the app never uses: its components are made at module
 * level by `React.forwardRef(...)` and named by `X.displayName = ...`, a call and a write
 * the bundler must keep, and with them `NavLink`, `Form` and the hooks these use
 * (-2.4 kB gzipped of every page, the bench's web row). Developer tools show the
 * components without these names; nothing else reads them.
 */
export function reactRouterProduction(): Plugin {
  return {
    name: 'shop:react-router-production',
    apply: 'build',
    enforce: 'pre',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: path.join(productionDir, 'index.mjs') },
          { find: /^react-router\/dom$/, replacement: path.join(productionDir, 'dom-export.mjs') },
        ],
      },
    }),
    transform: {
      filter: { id: /[\\/]react-router[\\/]dist[\\/]production[\\/]chunk-[\w-]+\.mjs$/ },
      handler(code) {
        const pure = code.replace(REACT_CALL, 'var $1 = /* @__PURE__ */ $2(').replace(DISPLAY_NAME, '');
        return pure === code ? null : { code: pure, map: null };
      },
    },
  };
}
