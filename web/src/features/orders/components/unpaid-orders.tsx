import { Link } from '@/components/link';
import { orderReference } from '@shop/core/contract';
import { CancelOrder } from '@/components/cancel-order';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Price } from '@/components/price';
import { formatDay } from '@/lib/format';
import { LoadMore } from '@/components/load-more';
import { ORDER_STATUS_LABELS, UNPAID_STATUSES } from '@/lib/order-status';
import { useMyOrders } from '../api/get-my-orders';
import { t } from '@/i18n/i18n';

/**
 * The user's orders not paid yet, each with where it stands and a way back to its pay
 * page: a buyer who closed the tab can finish paying. Shown only when there is one.
 */
export function UnpaidOrders() {
  const list = useMyOrders(UNPAID_STATUSES);
  const unpaid = list.data ?? [];
  if (unpaid.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('orders.unpaid.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul aria-label={t('orders.unpaid.list')} className="divide-y">
          {unpaid.map((order) => (
            <li key={order._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="grid gap-1">
                <span className="font-medium">
                  {order.orderedItems.map((i) => `${i.qty} x ${i.name}`).join(', ')}
                </span>
                <span className="text-sm text-muted-foreground">
                  <span className="font-mono text-xs">{orderReference(order._id)}</span> · {formatDay(order.createdAt)} · <Price usd={order.totalPrice} />
                </span>
              </div>
              <div className="flex flex-wrap items-center gap-3">
                <Badge variant="secondary">{ORDER_STATUS_LABELS[order.status]}</Badge>
                <Link to={`/order/${order._id}`} className="text-sm font-medium underline underline-offset-4">
                  {order.status === 'LATE' ? t('orders.unpaid.see') : t('orders.unpaid.pay')}
                </Link>
                <CancelOrder orderId={order._id} status={order.status} size="sm" />
              </div>
            </li>
          ))}
        </ul>
        <LoadMore list={list} label={t('orders.unpaid.more')} />
      </CardContent>
    </Card>
  );
}
