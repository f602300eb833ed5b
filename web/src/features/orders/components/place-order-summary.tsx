import { CircleAlert } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { t } from '@/i18n/i18n';
import { formatAmount } from '@/lib/format';

type PlaceOrderSummaryProps = {
  totalPrice: string;
  /** The server's message from the last failed attempt. */
  error: string | undefined;
  isPending: boolean;
  onPlaceOrder: () => void;
};

/** SPEC.md /placeorder: 'Order Summary' with 'Total', the server's message and 'Place Order'. */
export function PlaceOrderSummary({ totalPrice, error, isPending, onPlaceOrder }: PlaceOrderSummaryProps) {
  return (
    <Card role="region" aria-label={t('orders.place.summary')}>
      <CardHeader>
        <CardTitle className="text-xl">
          <h2>{t('orders.place.summary')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="flex items-center justify-between border-y py-3">
          <dt className="font-medium">{t('orders.place.total')}</dt>
          <dd className="text-lg font-semibold tabular-nums">{t('orders.place.totalAmount', { total: formatAmount(totalPrice) })}</dd>
        </dl>
        {error ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden="true" />
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        ) : null}
      </CardContent>
      <CardFooter>
        {/* Deliberately enabled for an empty cart (SPEC.md): the server answers 'No order items'. */}
        <Button pending={isPending} className="w-full" onClick={onPlaceOrder} disabled={isPending} aria-busy={isPending}>
          {t('orders.place.button')}
        </Button>
      </CardFooter>
    </Card>
  );
}
