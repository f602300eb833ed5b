import { ROUTE_PRELOADS_FILE, type ScreenPreloads } from '@shop/core/contract';

/**
 * A screen's chunks, fetched together when a link opens it. The build names no chunk's
 * imports in the app's code (vite.config.ts `modulePreload: false`: the lists were 2 kB of
 * the home page's JavaScript), so without this a screen's module would load first and
 * its imports only once it had run: a round trip more. Its list is the build's
 * route-preloads.json, the one the api names a first page's chunks from (2 kB gzipped,
 * data), fetched once the app has started drawing its first page and the browser is idle.
 */
let screens: Map<string, readonly string[]> | undefined;
const preloaded = new Set<string>();

/** Fetches the screens' chunk lists, once, when the browser is idle (a built app only: the dev server serves modules). */
export function fetchScreenChunksWhenIdle(): void {
  if (!import.meta.env.PROD || screens) return;
  const fetchList = () =>
    // Revalidated (the api sends it cached for an hour): a new release's list, not the last one's.
    fetch(`/${ROUTE_PRELOADS_FILE}`, { cache: 'no-cache' })
      .then((response) => (response.ok ? (response.json() as Promise<ScreenPreloads[]>) : []))
      .then((list) => void (screens = new Map(list.map((screen) => [screen.path, screen.files]))))
      // Without the list a screen still loads, its imports after its module.
      .catch(() => undefined);
  if ('requestIdleCallback' in window) requestIdleCallback(() => void fetchList());
  else setTimeout(() => void fetchList(), 1);
}

/** A chunk of the build, as route-preloads.json names it (the api and boot.ts check the same). */
const CHUNK = /^\/assets\/[\w.-]+\.js$/;

/**
 * Asks for the chunks of the screen at `path` (pages.ts syntax, '' the home page) that the
 * page has not loaded yet. Called as a screen starts loading, in its render: never throws.
 * (Its links are made as boot.ts makes them; boot.ts is index.html's chunk, which the
 * app's code must not import.)
 */
export function preloadScreen(path: string): void {
  const files = screens?.get(`/${path}`);
  for (const file of Array.isArray(files) ? files : []) {
    if (typeof file !== 'string' || !CHUNK.test(file) || preloaded.has(file) || document.querySelector(`link[rel="modulepreload"][href="${file}"]`)) continue;
    preloaded.add(file);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = file;
    document.head.append(link);
  }
}
