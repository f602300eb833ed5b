import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/router';

/** Renders route objects at a path with the app's real providers. */
export function renderRoutes(routes: RouteObject[], path = '/') {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}

/**
 * Renders the whole app at `path`: its routes (layout, guards, the screen's lazy module)
 * inside the providers. Tests of a feature's screen render it this way, so they go
 * through the app as a visitor does without importing app/ themselves.
 */
export function renderApp(path = '/') {
  return renderRoutes(routes, path);
}

/** Renders one element as the page at `path`, inside the providers. */
export function renderPage(ui: ReactElement, path = '/') {
  return renderRoutes([{ path: '*', element: ui }], path);
}
