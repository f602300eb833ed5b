import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';
import { loadCatalog, startLocale, whenMissing } from '@/i18n/i18n';

// jsdom has no ResizeObserver; Radix primitives (the checkbox) measure themselves with it.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// Tests render the whole app (testing/render-app.tsx), whose screens load lazily: on a
// busy two-core machine a screen's first render can take longer than Testing Library's
// 1 s default for findBy* and waitFor (CI shares the machine). What they wait for is unchanged.
configure({ asyncUtilTimeout: 20_000 });

// Every screen draws in English unless a test chooses another language: all areas'
// catalogues loaded, as the app loads a screen's with its module. A message missing from
// the catalogue fails the test that draws it (rather than showing its key).
await Promise.all([loadCatalog('auth', 'en'), loadCatalog('account', 'en'), loadCatalog('admin', 'en')]);
await startLocale('en');
whenMissing((key, locale) => {
  throw new Error(`no message '${key}' in the ${locale} catalogues`);
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// sonner removes a toast it dismissed 200 ms later (TIME_BEFORE_UNMOUNT), on a timer the
// unmount does not clear: a toast dismissed just before a file's last test ended would
// update React after jsdom is gone. A timer set now for longer runs after every such one.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 250)));
