import { lazy, Suspense } from 'react';
import { PageSpinner } from '@/components/ui/spinner';

// The wallet code (wagmi, viem) is a chunk of its own that starts loading only when this
// page renders, so a visitor bounced to /login by the route guard never downloads it.
const WalletPayPage = lazy(async () => ({ default: (await import('./pay-page')).WalletPayPage }));

/** The /order/:id route (SPEC.md pay page). */
export function PayRoute() {
  return (
    <Suspense fallback={<PageSpinner label="Loading the pay page" />}>
      <WalletPayPage />
    </Suspense>
  );
}
