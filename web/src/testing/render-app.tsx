import { useLayoutEffect, type ReactElement, type ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate, useRoutes, type Location, type NavigateFunction, type RouteObject } from 'react-router-dom';
import { AppProviders } from '@/app/providers';
import { AppRoutes } from '@/app/router';

/** The router of a rendered page, as a test sees it: where it is, and a way to go elsewhere. */
export type TestRouter = {
  /** The address shown now. */
  readonly location: Location;
  /** Goes to `to` as a link would, and waits for React to have drawn it. */
  navigate(to: string): Promise<void>;
};

type Seen = { location?: Location; navigate?: NavigateFunction };

/** Reports the router's address and its navigate function to the test, after each render. */
function RouterProbe({ seen }: { seen: Seen }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    Object.assign(seen, { location, navigate });
  }, [seen, location, navigate]);
  return null;
}

function renderInRouter(children: ReactNode, path: string) {
  const seen: Seen = {};
  const result = render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <RouterProbe seen={seen} />
        {children}
      </MemoryRouter>
    </AppProviders>,
  );
  const router: TestRouter = {
    get location() {
      if (!seen.location) throw new Error('the router has not rendered');
      return seen.location;
    },
    async navigate(to) {
      const { navigate } = seen;
      if (!navigate) throw new Error('the router has not rendered');
      await act(async () => {
        await navigate(to);
      });
    },
  };
  return { ...result, router };
}

function TestRoutes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/** Renders route objects at a path with the app's real providers. */
export function renderRoutes(routes: RouteObject[], path = '/') {
  return renderInRouter(<TestRoutes routes={routes} />, path);
}

/**
 * Renders the whole app at `path`: its routes (layout, guards, the screen's lazy module)
 * inside the providers. Tests of a feature's screen render it this way, so they go
 * through the app as a visitor does without importing app/ themselves.
 */
export function renderApp(path = '/') {
  return renderInRouter(<AppRoutes />, path);
}

/** Renders one element as the page at `path`, inside the providers. */
export function renderPage(ui: ReactElement, path = '/') {
  return renderRoutes([{ path: '*', element: ui }], path);
}
