import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { dehydrate } from '@tanstack/react-query';
import { StaticRouter } from 'react-router-dom';
import type { RenderPage } from '@shop/core/contract';
import { AppProviders } from './app/providers';
import { startLocale } from './i18n/i18n';
import { startCurrency } from './i18n/preferences';
import { AppRoutes, loadRoutesAt, pageMetaAt } from './app/router';
import { pageDescription, pageTitle } from './app/layout/app-layout';
import { pagedQueryOptions } from './lib/paged-query';
import { createQueryClient } from './lib/query-client';
import { productQueryKey, productsQueryKey, shopConfigQueryKey } from './lib/query-keys';

/**
 * The page being drawn: the next waits for it. The language and currency are the app's
 * own (one at a time, as in a browser), and a page awaits its words and its screen before
 * it renders: drawn at once, a page in Russian took the language of one in Azerbaijani
 * asked for in between. renderToString itself is synchronous, so this costs no throughput.
 */
let drawing: Promise<unknown> = Promise.resolve();

/**
 * Draws a public page on the server (the web build's server bundle, called by
 * api/src/web-app.ts): the same routes, providers and screens as the browser's app, with
 * the reads the api made put into the query cache first. The cache goes into the page
 * too (`state`), so the browser hydrates from exactly what was drawn, in the visitor's
 * language and display currency (`locale`, `currency`: api/src/middleware/locale.ts).
 */
export const render: RenderPage = (request) => {
  const drawn = drawing.then(() => draw(request));
  drawing = drawn.then(
    () => undefined,
    () => undefined,
  );
  return drawn;
};

const draw: RenderPage = async ({ url, locale, currency, data }) => {
  await startLocale(locale);
  startCurrency(currency);
  const queryClient = createQueryClient();
  queryClient.setQueryData(shopConfigQueryKey, data.shopConfig);
  if (data.products) {
    // The home page's list (no search): the key its infinite query asks for.
    const { queryKey } = pagedQueryOptions(productsQueryKey, '/api/products', { q: undefined });
    queryClient.setQueryData(queryKey, { pages: [data.products], pageParams: [null] });
  }
  if (data.product) queryClient.setQueryData(productQueryKey(data.product._id), data.product);

  // The screen's module first: renderToString draws what it has, and never waits.
  const { pathname } = new URL(url, 'http://shop.invalid');
  await loadRoutesAt(pathname);
  const html = renderToString(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
  );
  const meta = pageMetaAt(pathname);
  return {
    html,
    title: pageTitle(meta),
    description: pageDescription(meta),

    // JSON inside <script>: '<' escaped so no '</script>' in a package's text ends it.
    state: JSON.stringify(dehydrate(queryClient)).replace(/</g, '\\u003c'),
  };
};
