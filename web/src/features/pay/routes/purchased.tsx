import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Link } from '@/components/link';
import { CircleAlert, CircleCheck, ExternalLink, Info } from 'lucide-react';
import { toast } from '@/lib/toast';
import { explorerName, explorerTxUrl } from '@shop/core/contract';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useShopNetwork } from '@/api/get-shop-config';
import { useOrder } from '../api/get-order';
import { OrderReceipt } from '../components/order-receipt';
import { OverpaymentCard } from '../components/overpayment-card';
import { t } from '@/i18n/i18n';

/** SPEC.md's text (in English exactly) when the page has no `?tx=`. */
const txMissingMessage = () => t('pay.purchased.txMissing');

/** How long the missing-transaction error stays before the visitor is sent home. */
export const TX_MISSING_REDIRECT_MS = 2500;

/**
 * SPEC.md /order/{id}/purchased: 'Success Pay' with the hash from `?tx=`, then what
 * waits for the buyer (an overpayment to add to the balance or have refunded), then the
 * order's receipt (what was bought, what was paid, by which transactions).
 */
export function PurchasedPage() {
  const { id = '' } = useParams();
  const { data: order } = useOrder(id);
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const tx = searchParams.get('tx')?.trim() ?? '';
  const overpayment = order?.isPaid ? order.overpayment : null;
  // Only where the shop names an explorer (EXPLORER_URL; Etherscan on mainnet, none on a local chain).
  const network = useShopNetwork();
  const explorerLink = network && tx ? explorerTxUrl(network, tx) : null;

  useEffect(() => {
    if (tx) return;
    // A fixed id keeps StrictMode's second effect run from stacking a second toast.
    toast.error(txMissingMessage(), { id: 'tx-missing' });
    const timer = window.setTimeout(() => navigate('/', { replace: true }), TX_MISSING_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [tx, navigate]);

  if (!tx) {
    return (
      <Alert variant="destructive">
        <CircleAlert aria-hidden="true" />
        <AlertDescription>{txMissingMessage()}</AlertDescription>
      </Alert>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <section className="flex w-full flex-col items-center gap-5 rounded-xl border px-6 py-10 text-center print:hidden">
        <CircleCheck aria-hidden="true" className="size-12 text-success" />
        <h1 className="text-2xl font-bold tracking-tight">{t('pay.purchased.title')}</h1>
        <div className="flex w-full flex-col gap-1">
          <span className="text-sm text-muted-foreground">{t('pay.claim.txHash')}</span>
          <code data-testid="tx-hash" className="break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">
            {tx}
          </code>
        </div>
        {overpayment ? (
          <Alert role="status" className="text-left">
            <Info aria-hidden="true" />
            <AlertDescription>
              {t('pay.purchased.overpaid')}
            </AlertDescription>
          </Alert>
        ) : null}
        <div className="flex flex-wrap justify-center gap-2">
          {network && explorerLink ? (
            <Button asChild variant="outline">
              <a href={explorerLink} target="_blank" rel="noreferrer">
                {t('pay.purchased.viewOn', { explorer: explorerName(network) ?? '' })}
                <ExternalLink aria-hidden="true" />
              </a>
            </Button>
          ) : null}
          <Button asChild variant="outline">
            <Link to={`/order/${id}`}>{t('pay.purchased.details')}</Link>
          </Button>
          <Button asChild>
            <Link to="/profile">{t('pay.purchased.myPackages')}</Link>
          </Button>
        </div>
      </section>
      {/* A decision the buyer owes comes first: below the receipt, a phone's reader never reached it. */}
      {order && overpayment ? <OverpaymentCard orderId={order._id} overpayment={overpayment} /> : null}
      {order?.isPaid ? <OrderReceipt order={order} /> : null}
    </div>
  );
}
