import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { hydrate } from '@tanstack/react-query';
import { DEFAULT_LOCALE, PAGE_STATE_ID } from '@shop/core/contract';
import { startLocale } from './i18n/i18n';
import { pageLocale, startCurrency } from './i18n/preferences';
import { AppProviders } from './app/providers';
import { AppRouter, loadRoutesAt } from './app/router';
import { fetchScreenChunksWhenIdle } from './app/screen-preloads';
import { createQueryClient } from './lib/query-client';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The reads a page drawn on the server showed (api/src/web-app.ts): in the cache before
// the first render, so the app draws what the page shows without asking again.
const queryClient = createQueryClient();
const state = document.getElementById(PAGE_STATE_ID)?.textContent;
if (state) hydrate(queryClient, JSON.parse(state));

const app = (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <AppRouter />
    </AppProviders>
  </StrictMode>
);

// The language the api drew the page in (`<html lang>`): its words load with the app, and
// the first render (a hydration too) draws in it.
startCurrency();
const started = startLocale(pageLocale() ?? DEFAULT_LOCALE);
const ready = (pathname: string) => Promise.all([started, loadRoutesAt(pathname)]);

if (container.firstElementChild) {
  // A page drawn on the server: its screen's module first, then React takes the markup
  // over, in a transition: hydration yields to the browser between pieces of work (the
  // page is already drawn), so a tap or a frame never waits for all of it.
  void ready(window.location.pathname).then(() => {
    startTransition(() => void hydrateRoot(container, app));
    fetchScreenChunksWhenIdle();
  });
} else {
  // A screen the app draws (a signed-in one, the pay page): its module first too (the api's
  // page preloads it with the app), so the first frame is the screen itself, not the
  // router's fallback spinner and then the screen a frame later. Should it fail to load,
  // the app starts anyway and the router shows why. Rendered in a transition, as a
  // hydration is: React yields to the browser between pieces of the screen's first render
  // instead of running it as one long task (the phone's first tap waited for it).
  const render = () => {
    startTransition(() => createRoot(container).render(app));
    fetchScreenChunksWhenIdle();
  };
  void ready(window.location.pathname).then(render, render);
}
