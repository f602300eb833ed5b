import { useSyncExternalStore } from 'react';
import type { toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;
type Kind = 'success' | 'error' | 'info' | 'dismiss';

/** Whether a toast has been asked for on this page: the Toaster is put in the page then (app/providers.tsx). */
let asked = false;
const listeners = new Set<() => void>();

const later =
  <K extends Kind>(kind: K) =>
  (...args: Parameters<Sonner[K]>): void => {
    if (!asked) {
      // Nothing shown yet: nothing to dismiss (a sign-in that worked does not load sonner).
      if (kind === 'dismiss') return;
      asked = true;
      for (const listener of listeners) listener();
    }
    // In the order asked: each call waits for the same import, then runs in turn.
    void import('sonner').then(({ toast }) => (toast[kind] as (...a: Parameters<Sonner[K]>) => unknown)(...args));
  };

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const askedNow = () => asked;
const notAsked = () => false;

/** True once a toast has been asked for: until then the page has no Toaster, and no sonner. */
export function useToastAsked(): boolean {
  // Module-level functions: a new `subscribe` at each render would make React subscribe again.
  return useSyncExternalStore(subscribe, askedNow, notAsked);
}

/**
 * sonner's `toast`, whose code (9 kB gzipped) loads when a page first shows a toast, not
 * with the page: no page waits for it, and one that never shows a toast (most visits to
 * the storefront) never loads it. sonner keeps a toast asked for before its Toaster is in
 * the page and shows it once the Toaster is there.
 */
export const toast = { success: later('success'), error: later('error'), info: later('info'), dismiss: later('dismiss') };
