import { useState, type ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { AppLayout, type PageMeta } from './layout/app-layout';
import { pages, type PageAccess, type PageEntry } from './pages';
import { RequireAdmin, RequireAuth } from './route-guards';
import { NotFoundPage } from './routes/not-found';
import { RouteError } from './routes/route-error';
import { ServerPage } from './routes/server-page';

/**
 * Each screen's module, loaded when it is first shown: every screen is a chunk of its own,
 * so the home page loads only what it shows. A feature's screens are in its routes/; a
 * screen made of several features is composed in app/screens/ (features do not import
 * each other). Keys are paths from the web root ('/src/...'); pages.ts names modules
 * by their path under src/.
 */
const screenModules = import.meta.glob<Record<string, ComponentType | undefined>>([
  '/src/features/*/routes/*.tsx',
  '/src/app/screens/*.tsx',
  '!/src/**/*.test.tsx',
]);

function screenRoute(page: PageEntry): RouteObject {
  const load = screenModules[`/src/${page.module}`];
  if (!load) throw new Error(`pages.ts names ${page.module}, which is not a screen module`);
  return {
    ...(page.path === '' ? { index: true } : { path: page.path }),
    handle: { title: page.title, description: page.description } satisfies PageMeta,
    lazy: async () => {
      const Component = (await load())[page.component];
      if (!Component) throw new Error(`${page.module} exports no ${page.component}`);
      return { Component };
    },
  };
}

const screens = (access: PageAccess) => pages.filter((page) => page.access === access).map(screenRoute);

/** The routes of the app, built from the list of screens (pages.ts). */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: AppLayout,
    HydrateFallback: PageSpinner,
    ErrorBoundary: RouteError,
    children: [
      {
        // Page errors render inside the layout so the header and footer stay.
        ErrorBoundary: RouteError,
        children: [
          ...screens('public'),
          { Component: RequireAuth, children: screens('signed-in') },
          // Served by the api, not by this app (the BullMQ dashboard); the server checks
          // admin rights. Reached client-side only by a redirect after signing in.
          { path: 'admin/queues/*', Component: ServerPage },
          { Component: RequireAdmin, children: screens('admin') },
          { path: '*', Component: NotFoundPage, handle: { title: 'Not found', description: 'This page does not exist.' } satisfies PageMeta },
        ],
      },
    ],
  },
];

/**
 * Loads the screen modules of the routes at `pathname` and puts them on their routes, so
 * a page drawn on the server hydrates at once with its screen, never its fallback (a
 * route still `lazy` would render `HydrateFallback` and not match the page).
 */
export async function loadRoutesAt(pathname: string): Promise<void> {
  await Promise.all(
    (matchRoutes(routes, pathname) ?? []).map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
