import type { Express } from 'express';

/** One route the app answers: its method and its full path pattern (`/api/orders/:id`). */
export type RouteEntry = { method: string; path: string };

type Layer = {
  route?: { path: unknown; methods: Record<string, boolean> };
  rawPath?: unknown;
  handle?: { stack?: Layer[]; router?: { stack?: Layer[] } };
};

/**
 * Every route of the app, read from Express's own router: the routes registered on the
 * app, on each mounted router and on mounted apps (the queue dashboard), with their
 * mount paths. Routes declared by a regular expression (the single-page app's
 * catch-all) are left out. Tests walk and fuzz this list, so a new route is covered
 * without anyone adding it to a list.
 */
export function listRoutes(app: Express): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = (Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]).filter((p): p is string => typeof p === 'string');
        for (const path of paths) {
          for (const method of Object.keys(layer.route.methods)) {
            if (method !== '_all') routes.push({ method: method.toUpperCase(), path: join(prefix, path) });
          }
        }
        continue;
      }
      const nested = layer.handle?.stack ?? layer.handle?.router?.stack;
      if (!nested) continue;
      const mount = typeof layer.rawPath === 'string' ? layer.rawPath : layer.rawPath === undefined ? '' : null;
      if (mount !== null) walk(nested, join(prefix, mount));
    }
  };
  walk((app.router as unknown as { stack: Layer[] }).stack, '');
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function join(prefix: string, path: string): string {
  if (path === '/' || path === '') return prefix || '/';
  return `${prefix.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}
