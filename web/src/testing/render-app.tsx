import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '@/app/providers';

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

/** Renders one element as the page at `path`, inside the providers. */
export function renderPage(ui: ReactElement, path = '/') {
  return renderRoutes([{ path: '*', element: ui }], path);
}
