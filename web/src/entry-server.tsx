import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { dehydrate } from '@tanstack/react-query';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import type { RenderPage } from '@shop/core/contract';
import { AppProviders } from './app/providers';
import { routes } from './app/router';
import { pageMetaOf, pageTitle } from './app/layout/app-layout';
import { pagedQueryOptions } from './lib/paged-query';
import { createQueryClient } from './lib/query-client';
import { productQueryKey, productsQueryKey, shopConfigQueryKey } from './lib/query-keys';

/**
 * Draws a public page on the server (the web build's server bundle, called by
 * api/src/web-app.ts): the same routes, providers and screens as the browser's app, with
 * the reads the api made put into the query cache first. The cache goes into the page
 * too (`state`), so the browser hydrates from exactly what was drawn. `locale` is the
 * page's language (one today; issue 41 passes the visitor's).
 */
export const render: RenderPage = async ({ url, data }) => {
  const queryClient = createQueryClient();
  queryClient.setQueryData(shopConfigQueryKey, data.shopConfig);
  if (data.products) {
    // The home page's list (no search): the key its infinite query asks for.
    const { queryKey } = pagedQueryOptions(productsQueryKey, '/api/products', { q: undefined });
    queryClient.setQueryData(queryKey, { pages: [data.products], pageParams: [null] });
  }
  if (data.product) queryClient.setQueryData(productQueryKey(data.product._id), data.product);

  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(url, 'http://shop.invalid')));
  // A redirect: the browser's app follows it, the api sends the page undrawn.
  if (context instanceof Response) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        {/* No inline hydration script (the CSP allows none): the routes have no loaders to hand over. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  const meta = pageMetaOf(context.matches.map((m) => m.route));
  return {
    html,
    title: pageTitle(meta),
    description: meta?.description ?? '',
    // JSON inside <script>: '<' escaped so no '</script>' in a package's text ends it.
    state: JSON.stringify(dehydrate(queryClient)).replace(/</g, '\\u003c'),
  };
};
