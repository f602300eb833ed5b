import { orderReference, type OrderJson } from '@shop/core/contract';
import { OrderLines } from '@/components/order-lines';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Price } from '@/components/price';
import { ORDER_STATUS_LABELS } from '@/lib/order-status';
import { t } from '@/i18n/i18n';

/** What the buyer is paying for: the lines, the total and where the order stands. */
export function OrderSummaryCard({ order }: { order: OrderJson }) {
  const lines = order.orderedItems.map((item, index) => ({
    key: `${item.product}-${index}`,
    productId: item.product,
    name: item.name,
    image: item.image,
    price: item.price,
    qty: item.qty,
  }));
  return (
    <Card role="region" aria-label={t('pay.summary.region')}>
      <CardHeader>
        <CardTitle className="text-lg">
          <h2>{t('pay.page.paidTitle', { reference: orderReference(order._id) })}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <OrderLines lines={lines} label={t('pay.summary.items')} />
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted-foreground">{t('pay.summary.total')}</dt>
          <dd className="text-right text-base font-semibold tabular-nums"><Price usd={order.totalPrice} /></dd>
          {order.paidUsd > 0 && !order.isPaid ? (
            <>
              <dt className="text-muted-foreground">{t('pay.summary.paidSoFar')}</dt>
              <dd className="text-right tabular-nums"><Price usd={order.paidUsd} /></dd>
            </>
          ) : null}
          <dt className="text-muted-foreground">{t('pay.summary.status')}</dt>
          <dd className="text-right">
            <Badge variant={order.isPaid ? 'success' : order.status === 'EXPIRED' || order.status === 'CANCELLED' ? 'destructive' : 'secondary'}>{ORDER_STATUS_LABELS[order.status] ?? order.status}</Badge>
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}
