import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { hydrate } from '@tanstack/react-query';
import { PAGE_STATE_ID } from '@shop/core/contract';
import { AppProviders } from './app/providers';
import { AppRouter, loadRoutesAt } from './app/router';
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

if (container.firstElementChild) {
  // A page drawn on the server: its screen's module first, then React takes the markup
  // over, in a transition: hydration yields to the browser between pieces of work (the
  // page is already drawn), so a tap or a frame never waits for all of it.
  void loadRoutesAt(window.location.pathname).then(() => startTransition(() => void hydrateRoot(container, app)));
} else {
  // A screen the app draws (a signed-in one, the pay page): its module first too (the api's
  // page preloads it with the app), so the first frame is the screen itself, not the
  // router's fallback spinner and then the screen a frame later. Should it fail to load,
  // the app starts anyway and the router shows why. Rendered in a transition, as a
  // hydration is: React yields to the browser between pieces of the screen's first render
  // instead of running it as one long task (the phone's first tap waited for it).
  const render = () => startTransition(() => createRoot(container).render(app));
  void loadRoutesAt(window.location.pathname).then(render, render);
}
