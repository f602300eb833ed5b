import { Link } from '@/components/link';
import { PackageCheck } from 'lucide-react';
import { orderReference, type OrderItemJson, type OrderJson } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { LoadMore } from '@/components/load-more';
import { Price } from '@/components/price';
import { daysLeft, formatDay } from '@/lib/format';
import { formatOrderLine } from '@/lib/line-total';
import { useMyOrders } from '../api/get-my-orders';
import { t } from '@/i18n/i18n';

const PAID = ['PAID'] as const;

type PaidLine = { key: string; item: OrderItemJson; orderId: string; expiresAt: string | null };

/**
 * Each item of each paid order, with its own end: the package's term from the payment
 * (the item's creditEndsAt). The order's expiresAt is its longest item's end, so it
 * stands in only for an item that has none.
 */
export function paidLines(orders: OrderJson[]): PaidLine[] {
  return orders
    .filter((order) => order.isPaid)
    .flatMap((order) =>
      order.orderedItems.map((item, index) => ({ key: `${order._id}-${index}`, item, orderId: order._id, expiresAt: item.creditEndsAt ?? order.expiresAt })),
    );
}

function termLeft(line: PaidLine): string {
  const days = daysLeft(line.expiresAt);
  if (days === undefined) return '';
  return days === 0 ? t('orders.paid.termEnded') : t('orders.paid.daysLeft', { count: days });
}

/** One package bought: SPEC.md's image, name, price and 'Expires in' (its own end), with its quantity, total, term left and order. */
function PaidLineRow({ line }: { line: PaidLine }) {
  const { item, expiresAt } = line;
  const left = termLeft(line);
  return (
    <li className="grid grid-cols-[3.5rem_minmax(0,1fr)] items-center gap-x-4 gap-y-1 py-3 sm:grid-cols-[3.5rem_minmax(0,1fr)_auto]">
      <img src={item.image} alt={item.name} className="row-span-3 aspect-square w-full rounded-md border bg-muted object-cover sm:row-span-2" />
      <Link to={`/product/${item.product}`} className="truncate font-medium hover:underline">
        {item.name}
      </Link>
      <span className="text-sm font-semibold sm:row-span-2 sm:text-right">
        <Price usd={item.price} />
      </span>
      <span className="col-start-2 flex flex-wrap gap-x-3 text-sm text-muted-foreground">
        <span className="tabular-nums">{formatOrderLine(item.qty, item.price)}</span>
        <Link to={`/order/${line.orderId}`} className="font-mono text-xs leading-5 underline underline-offset-4">
          {orderReference(line.orderId)}
        </Link>
      </span>
      <span className="col-start-2 text-sm text-muted-foreground sm:col-span-2">
        <span>{t('orders.paid.expiresIn')}</span> <time dateTime={formatDay(expiresAt)}>{formatDay(expiresAt) || '-'}</time>
        {left ? <span> ({left})</span> : null}
      </span>
    </li>
  );
}

/** The profile's list of the user's own paid orders (GET /api/orders/mine). */
export function PaidOrders() {
  const list = useMyOrders(PAID);
  const { isPending, isError, error } = list;
  const orders = list.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('orders.paid.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label={t('orders.loading')} />
          </div>
        ) : isError ? (
          <ErrorAlert error={error} />
        ) : paidLines(orders).length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <PackageCheck aria-hidden="true" className="size-4" />
            {t('orders.paid.none')}
          </p>
        ) : (
          <ul aria-label={t('orders.paid.list')} className="divide-y">
            {paidLines(orders).map((line) => (
              <PaidLineRow key={line.key} line={line} />
            ))}
          </ul>
        )}
        <LoadMore list={list} label={t('orders.more')} />
      </CardContent>
    </Card>
  );
}
