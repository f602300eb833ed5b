import type { toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;
type Kind = 'success' | 'error' | 'info' | 'dismiss';

const later =
  <K extends Kind>(kind: K) =>
  (...args: Parameters<Sonner[K]>): void => {
    // In the order asked: each call waits for the same import, then runs in turn.
    void import('sonner').then(({ toast }) => (toast[kind] as (...a: Parameters<Sonner[K]>) => unknown)(...args));
  };

/**
 * sonner's `toast`, whose code (9 kB gzipped) loads when a screen first shows a toast,
 * not with the screen: a screen that can show one (the pay page) no longer waits for it
 * before its first paint. sonner keeps a toast asked for before its Toaster is in the page
 * (app/providers.tsx loads that once the page runs) and shows it then.
 */
export const toast = { success: later('success'), error: later('error'), info: later('info'), dismiss: later('dismiss') };
