import { lazy, Suspense, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '@/components/ui/sonner';
import { clearUserInfo, useUserInfo } from '@/features/auth/auth-store';

// Money actions need a signed-in user: the step-up dialog (and Radix's dialog) load only then.
const StepUpDialog = lazy(() => import('@/features/auth/components/step-up-dialog').then((m) => ({ default: m.StepUpDialog })));
import { onUnauthorized } from '@/lib/api-client';
import { createQueryClient } from '@/lib/query-client';

// Any 401 means the session cookie is gone: forget the stored user, and the route
// guards send the visitor to /login with a way back.
onUnauthorized(() => clearUserInfo());

export function AppProviders({ children }: { children: ReactNode }) {
  // One client per app instance (and per test render), never shared across them.
  const [queryClient] = useState(createQueryClient);
  const user = useUserInfo();
  return (
    <QueryClientProvider client={queryClient}>
      {/* First in the page: sonner sends the focus back where it came from when it leaves the
          toasts, so after the footer they would hold a keyboard user in a loop. */}
      <Toaster />
      {children}
      {user ? (
        <Suspense fallback={null}>
          <StepUpDialog />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  );
}
