import { lazy, memo, startTransition, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import type { OrderJson } from '@shop/core/contract';
import { orderReference } from '@shop/core/contract';
import { CircleAlert } from 'lucide-react';
import { CancelOrder } from '@/components/cancel-order';
import { ErrorAlert } from '@/components/error-alert';
import { LoadBoundary } from '@/components/load-boundary';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { hasInjectedProvider } from '@/lib/injected-provider';
import { useOrder } from '../api/get-order';
import { OpenInMetaMask } from '../components/open-in-metamask';
import { OrderSummaryCard } from '../components/order-summary-card';
import { OverpaymentCard } from '../components/overpayment-card';
import { isMobileDevice } from '../wallet-messages';

/** True once the wallet code is in: a later pay page draws its wallet side with the order. */
let walletLoaded = false;

// The wallet code (wagmi, viem) is a chunk of its own. It starts loading once the order
// summary is on screen (not before: a visitor the route guard sends to /login never
// downloads it, and on a slow phone the order is not held up behind it). A failed load
// shows where the column goes (WalletLoadFailed, through LoadBoundary).
const WalletPayColumn = lazy(async () => {
  const { WalletPayColumn: column } = await import('./pay-page');
  walletLoaded = true;
  return { default: column };
});

/**
 * True from the first frame after `ready` became true: the browser has drawn what was
 * rendered with it. What is rendered on it (and the code it loads) comes after that paint.
 */
function useShownAfterPaint(ready: boolean, already: boolean) {
  const [shown, setShown] = useState(already);
  useEffect(() => {
    if (!ready || shown) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A transition: React renders what comes in a few milliseconds at a time, so the
    // wallet side does not hold the page up in one long task.
    const show = () => (timer = setTimeout(() => startTransition(() => setShown(true)), 0));
    // A hidden tab paints nothing and runs no animation frames: it goes on at once.
    if (document.visibilityState === 'hidden') {
      show();
      return () => clearTimeout(timer);
    }
    // requestAnimationFrame runs before the next paint; the timeout queued from it, after.
    const frame = requestAnimationFrame(show);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, shown]);
  return shown;
}

function WalletLoading() {
  return <PageSpinner label={t('pay.page.loadingWallet')} />;
}

// A paid order's receipt: its own chunk, so the page a buyer pays on loads none of it.
const OrderReceipt = lazy(async () => ({ default: (await import('../components/order-receipt')).OrderReceipt }));

/** The wallet side failed to load (a dropped connection, or a release since the page was opened). */
function WalletLoadFailed() {
  return (
    <Alert variant="destructive">
      <CircleAlert aria-hidden="true" />
      <AlertDescription className="flex flex-col items-start gap-3">
        <p>{t('pay.page.walletLoadFailed')}</p>
        <Button variant="outline" onClick={() => window.location.reload()}>
          {t('pay.page.reload')}
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** The /order/:id route (SPEC.md pay page): the order, then the wallet side once its code is in. */
export function PayPage() {
  const { id = '' } = useParams();
  const { data: fetched, isPending, isError, error } = useOrder(id, { follow: true });
  // The order as drawn. A query's news (the order's arrival, a change a poll brings) comes
  // in a synchronous render; the order's panels are drawn with it in a deferred one, which
  // yields to the browser, instead of holding the phone's main thread for all of them.
  const order = useDeferredValue(fetched);
  const offerDeepLink = isMobileDevice() && !hasInjectedProvider();
  const summaryShown = useShownAfterPaint(order !== undefined, walletLoaded);
  const paidTitle = order?.isPaid ? t('pay.page.paidTitle', { reference: orderReference(order._id) }) : undefined;
  useEffect(() => {
    if (!paidTitle) return;
    // After the layout's own title effect, which runs after this one in the same commit.
    queueMicrotask(() => (document.title = `${paidTitle} | ETH Shop`));
  }, [paidTitle]);

  return (
    // A screen tall while it loads, so the footer does not move when the wallet side comes in.
    <section className="flex min-h-svh flex-col gap-6">
      {offerDeepLink && !order?.isPaid ? <OpenInMetaMask /> : null}
      {/* SPEC.md's title 'Pay' while there is something to pay; a paid order's page is its receipt. */}
      <h1 className="text-2xl font-bold tracking-tight">{paidTitle ?? t('pay.page.title')}</h1>
      {/* A failed refresh of an order already shown is an alert above it: the wallet side
          (a connection, a payment being sent) stays as it is. */}
      {isError ? <ErrorAlert error={error} /> : null}
      {isPending || (fetched && !order) ? (
        <PageSpinner label={t('pay.page.loadingOrder')} />
      ) : order ? (
        <OrderPanels order={order} summaryShown={summaryShown} />
      ) : null}
    </section>
  );
}

/** The order's panels: the summary (or receipt) and the wallet side. Memoized: drawn only when the order as drawn changes. */
const OrderPanels = memo(function OrderPanels({ order, summaryShown }: { order: OrderJson; summaryShown: boolean }) {
  return (
    <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="flex flex-col gap-4">
        {/* A decision the buyer owes comes first, above the receipt (on a phone the wallet column is below it). */}
        {order.isPaid && order.overpayment ? <OverpaymentCard orderId={order._id} overpayment={order.overpayment} /> : null}
        {order.isPaid ? (
          <Suspense fallback={<PageSpinner label={t('pay.page.loadingReceipt')} />}>
            <OrderReceipt order={order} />
          </Suspense>
        ) : (
          <OrderSummaryCard order={order} />
        )}
        <div className="flex justify-end print:hidden">
          <CancelOrder orderId={order._id} status={order.status} />
        </div>
      </div>
      <div className="print:hidden">
        <LoadBoundary failed={<WalletLoadFailed />}>
          <Suspense fallback={<WalletLoading />}>{summaryShown ? <WalletPayColumn order={order} /> : <WalletLoading />}</Suspense>
        </LoadBoundary>
      </div>
    </div>
  );
});

