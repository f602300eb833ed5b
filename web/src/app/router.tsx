import { Suspense, useMemo, type ComponentType, type ReactElement } from 'react';
import { BrowserRouter, matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { AppLayout, PageRunning, pageMetaOf, type PageMeta } from './layout/app-layout';
import { pages, type PageAccess, type PageEntry } from './pages';
import { RequireAdmin, RequireAuth } from './route-guards';
import { NotFoundPage } from './routes/not-found';
import { RouteErrorBoundary } from './routes/route-error';
import { ServerPage } from './routes/server-page';
import { preloadScreen } from './screen-preloads';
import { activeLocale, loadCatalog, type CatalogArea } from '@/i18n/i18n';

/**
 * The catalogues a screen's words are in (i18n/i18n.ts), beyond `shop`, which the app
 * loads first: by who may open it, and a public screen's own (pages.ts `catalogue`).
 * A signed-in screen may show the second-factor texts (auth); the console, a buyer's
 * order and its statuses (account).
 */
function catalogueAreas(page: Pick<PageEntry, 'access' | 'catalogue'>): CatalogArea[] {
  if (page.access === 'admin') return ['auth', 'account', 'admin'];
  if (page.access === 'signed-in') return ['auth', 'account'];
  return page.catalogue ? [page.catalogue] : [];
}

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

/** How to load each screen's route's module (loadRoutesAt). */
const screenLoads = new WeakMap<RouteObject, () => Promise<unknown>>();

/** A screen's element, loaded: once settled, it says how (`status`), as React.lazy's does. */
type Loading = Promise<ReactElement> & { status?: 'fulfilled' | 'rejected'; value?: ReactElement; reason?: unknown };

/**
 * A screen's route: its element draws the screen once its module is loaded, and suspends
 * until then as React.lazy does (the layout shows a spinner; a navigation keeps the page
 * it leaves). Unlike React.lazy it knows when its module was loaded before its first
 * render: a page drawn on the server, whose module loadRoutesAt loaded first, is drawn
 * there and hydrated here without suspending.
 */
function screenRoute(page: PageEntry): RouteObject {
  const importModule = screenModules[`/src/${page.module}`];
  if (!importModule) throw new Error(`pages.ts names ${page.module}, which is not a screen module`);
  // Per language: the screen's words are its catalogues in the language drawn in.
  const loadings = new Map<string, Loading>();
  const load = (): Loading => {
    const locale = activeLocale();
    const loading = loadings.get(locale);
    if (loading) return loading;
    // Its chunks together (once the app knows them), then the screen's words with its
    // code: its area's catalogue in the language drawn in.
    preloadScreen(page.path);
    const started: Loading = Promise.all([importModule(), ...catalogueAreas(page).map((area) => loadCatalog(area))]).then(([module]) => {
      const Component = module[page.component];
      if (!Component) throw new Error(`${page.module} exports no ${page.component}`);
      return <Component />;
    });
    started.then(
      (value) => Object.assign(started, { status: 'fulfilled', value }),
      (reason: unknown) => Object.assign(started, { status: 'rejected', reason }),
    );
    loadings.set(locale, started);
    return started;
  };
  function Screen() {
    const screen = load();
    if (screen.status === 'fulfilled' && screen.value) return screen.value;
    // Suspense's protocol, as React.lazy's: the nearest <Suspense> waits for the promise.
    throw screen.status === 'rejected' ? screen.reason : screen;
  }
  Screen.displayName = `Screen(${page.component})`;
  const route: RouteObject = {
    ...(page.path === '' ? { index: true } : { path: page.path }),
    element: <Screen />,
    handle: { title: page.title, description: page.description, areas: catalogueAreas(page) } satisfies PageMeta,
  };
  screenLoads.set(route, load);
  return route;
}

const screens = (access: PageAccess) => pages.filter((page) => page.access === access).map(screenRoute);

/**
 * The routes of the app, built from the list of screens (pages.ts). The layout (header,
 * footer) is around them all, drawn by AppRoutes.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    children: [
      ...screens('public'),
      { element: <RequireAuth />, children: screens('signed-in') },
      // Served by the api, not by this app (the BullMQ dashboard); the server checks
      // admin rights. Reached client-side only by a redirect after signing in.
      { path: 'admin/queues/*', element: <ServerPage /> },
      { element: <RequireAdmin />, children: screens('admin') },
      { path: '*', element: <NotFoundPage />, handle: { title: 'pages.notFound.title', description: 'pages.notFound.description', areas: [] } satisfies PageMeta
 },
    ],
  },
];

const matchesAt = (pathname: string) => matchRoutes(routes, pathname) ?? [];

/** The title and meta description of the page at `pathname` (the server's render reads it too). */
export function pageMetaAt(pathname: string): PageMeta | undefined {
  return pageMetaOf(matchesAt(pathname).map((match) => match.route));
}

/**
 * Loads the screen modules of the routes at `pathname`, so a page drawn on the server is
 * drawn (on the server) and hydrated (in the browser) with its screen, never a spinner.
 */
export async function loadRoutesAt(pathname: string): Promise<void> {
  await Promise.all(matchesAt(pathname).map(({ route }) => screenLoads.get(route)?.()));
}

/**
 * The app's pages at the router's address: the layout, and inside it the page, its errors
 * (the header and footer stay) and its spinner while its module loads. An error of the
 * layout itself is shown alone.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  const meta = useMemo(() => pageMetaAt(pathname), [pathname]);
  const page = useRoutes(routes);
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <AppLayout meta={meta}>
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSpinner />}>
            {page}
            <PageRunning />
          </Suspense>
        </RouteErrorBoundary>
      </AppLayout>
    </RouteErrorBoundary>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
