import { Link } from '@/components/link';
import { History } from 'lucide-react';
import { LISTED_ORDER_STATUSES, orderReference, type OrderStatus } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { LoadMore } from '@/components/load-more';
import { StatusFilter } from '@/components/list-filter-fields';
import { useListParam } from '@/components/list-filters';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Price } from '@/components/price';
import { formatDay } from '@/lib/format';
import { ORDER_STATUS_LABELS } from '@/lib/order-status';
import { useMyOrders } from '../api/get-my-orders';
import { t } from '@/i18n/i18n';

/** The URL parameter of the history's state filter (the profile has no other list filter). */
const PARAM = 'orders';

const stateOptions = () => [
  { value: '', label: t('orders.history.allStates') },
  ...LISTED_ORDER_STATUSES.map((status) => ({ value: status, label: ORDER_STATUS_LABELS[status] })),
];

const BADGES: Partial<Record<OrderStatus, NonNullable<BadgeProps['variant']>>> = { PAID: 'success', CANCELLED: 'outline', EXPIRED: 'outline' };

const isListed = (value: string | undefined): value is (typeof LISTED_ORDER_STATUSES)[number] =>
  (LISTED_ORDER_STATUSES as readonly string[]).includes(value ?? '');

/**
 * Every order the shopper placed, in every state (cancelled and expired ones too), newest
 * first, a page at a time; the filter shows one state (`?orders=CANCELLED`, read through
 * Order(userId, status, createdAt, id)). Each links to its order page.
 */
export function OrderHistory() {
  const [param] = useListParam(PARAM);
  const state = isListed(param) ? param : undefined;
  const list = useMyOrders(state ? [state] : undefined);
  const orders = list.data ?? [];
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>
          <h2 className="text-lg">{t('orders.history.title')}</h2>
        </CardTitle>
        <StatusFilter label={t('orders.history.show')} options={stateOptions()} param={PARAM} />
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label={t('orders.loading')} />
          </div>
        ) : list.isError ? (
          <ErrorAlert error={list.error} />
        ) : orders.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <History aria-hidden="true" className="size-4" />
            {state ? t('orders.history.noneInState', { state: ORDER_STATUS_LABELS[state].toLowerCase() }) : t('orders.history.none')}
          </p>
        ) : (
          <ul aria-label={t('orders.history.list')} className="divide-y">
            {orders.map((order) => (
              <li key={order._id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-3">
                <div className="grid min-w-0 gap-1">
                  <span className="font-medium break-words">{order.orderedItems.map((i) => `${i.qty} x ${i.name}`).join(', ')}</span>
                  <span className="text-sm text-muted-foreground">
                    <Link to={`/order/${order._id}`} className="font-mono text-xs underline underline-offset-4">
                      {orderReference(order._id)}
                    </Link>{' '}
                    · {formatDay(order.createdAt)} · <Price usd={order.totalPrice} />
                  </span>
                </div>
                <Badge variant={BADGES[order.status] ?? 'secondary'}>{ORDER_STATUS_LABELS[order.status]}</Badge>
              </li>
            ))}
          </ul>
        )}
        <LoadMore list={list} label={t('orders.more')} />
      </CardContent>
    </Card>
  );
}
