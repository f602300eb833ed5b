import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';

import { nextStepUpHandler, onStepUp, onUnauthorized } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';
import { useToastAsked } from '@/lib/toast';
import { loadCatalog } from '@/i18n/i18n';
import { clearUserInfo, useUserInfo } from '@/stores/auth-store';

// The toasts (sonner, 9 kB) load when the page first asks for one (lib/toast.ts): sonner
// replays to the Toaster any toast asked for before it is there.
const Toaster = lazy(() => import('@/components/ui/sonner').then((m) => ({ default: m.Toaster })));

// Money actions need a signed-in user: the step-up dialog (and Radix's dialog) load only then.
// Its words (the `auth` catalogue) load with it: it opens over any page.
const StepUpDialog = lazy(() =>
  Promise.all([import('@/features/auth/components/step-up-dialog'), loadCatalog('auth')]).then(([m]) => ({ default: m.StepUpDialog })),
);

/** How long after the page opens the dialog's code loads anyway, with nothing asked of it. */
const STEP_UP_IDLE_MS = 5_000;

/**
 * True once the step-up dialog should be in the page: at the visitor's first press of a
 * key or pointer, a few seconds after the page opened, or when a call asks for a second
 * factor first. Until then its code (and Radix's dialog, 25 kB) stays out of the way of
 * the page's own first paint; a call that asks meanwhile loads it and is handed over.
 */
function useStepUpDialogWanted(signedIn: boolean): boolean {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (!signedIn || wanted) return;
    const want = () => setWanted(true);
    onStepUp(async () => {
      const handler = nextStepUpHandler();
      want();
      return (await handler)();
    });
    const timer = setTimeout(want, STEP_UP_IDLE_MS);
    window.addEventListener('pointerdown', want, { capture: true, once: true });
    window.addEventListener('keydown', want, { capture: true, once: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('pointerdown', want, { capture: true });
      window.removeEventListener('keydown', want, { capture: true });
    };
  }, [signedIn, wanted]);
  return wanted;
}

// Any 401 means the session cookie is gone: forget the stored user, and the route
// guards send the visitor to /login with a way back.
onUnauthorized(() => clearUserInfo());

/**
 * `queryClient`: the client the page's embedded reads were put into (main.tsx, and
 * entry-server.tsx on the server); otherwise a new one.
 */
export function AppProviders({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  // One client per app instance (and per test render), never shared across them.
  const [queryClient] = useState(() => given ?? createQueryClient());
  const user = useUserInfo();
  const stepUpWanted = useStepUpDialogWanted(user !== null);
  // False on the server and in the hydration (useSyncExternalStore's server value): the same first render.
  const toastAsked = useToastAsked();
  return (
    <QueryClientProvider client={queryClient}>
      {/* First in the page: sonner sends the focus back where it came from when it leaves the
          toasts, so after the footer they would hold a keyboard user in a loop. */}
      {toastAsked ? (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      ) : null}
      {children}
      {user && stepUpWanted ? (
        <Suspense fallback={null}>
          <StepUpDialog />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  );
}
