import type { ReactNode } from 'react';
import { Link } from '@/components/link';
import type { AdminOrderDetailJson } from '@shop/core/contract';
import { CappedNote, DetailList, SectionCard } from '@/components/detail-list';
import { StatusBadge } from '@/components/status-badge';
import { t } from '@/i18n/i18n';
import { formatAmount, formatTime, formatUsd } from '@/lib/format';
import { lineTotal } from '@/lib/line-total';

type Order = AdminOrderDetailJson;

/** Money and dates: what was due, what arrived, what is left over. */
export function OrderSummary({ order }: { order: Order }) {
  return (
    <SectionCard title={t('adminOrder.summary.title')}>
      <DetailList
        items={[
          [t('adminOrder.summary.total'), formatUsd(order.totalPrice)],
          [t('adminOrder.summary.received'), formatUsd(order.paidUsd)],
          [
            t('adminOrder.summary.overpaid'),
            order.overpaidUsd > 0 ? t('adminOrder.summary.overpaidSettled', { overpaid: formatUsd(order.overpaidUsd), settled: formatUsd(order.overpaidSettledUsd) }) : '—',
          ],
          [t('adminOrder.summary.placed'), formatTime(order.createdAt)],
          ...(order.paymentDeadline && !order.isPaid ? [[t('adminOrder.summary.payBy'), formatTime(order.paymentDeadline)] as [string, string]] : []),
          ...(order.paidAt ? [[t('adminOrder.summary.paid'), formatTime(order.paidAt)] as [string, string]] : []),
          ...(order.expiresAt ? [[t('adminOrder.summary.runsUntil'), formatTime(order.expiresAt)] as [string, string]] : []),
          ...(order.cancelledAt ? [[t('adminOrder.summary.cancelled'), formatTime(order.cancelledAt)] as [string, string]] : []),
          ...(order.deletedAt ? [[t('adminOrder.summary.deleted'), formatTime(order.deletedAt)] as [string, string]] : []),
          ...(order.depositAddress
            ? [[t('adminOrder.summary.depositAddress'), <code key="deposit" className="font-mono text-xs break-all">{order.depositAddress}</code>] as [string, ReactNode]]
            : []),
        ]}
      />
    </SectionCard>
  );
}

export function OrderBuyer({ buyer }: { buyer: Order['buyer'] }) {
  return (
    <SectionCard title={t('adminOrder.buyer.title')}>
      <DetailList
        items={[
          [
            t('adminOrder.buyer.name'),
            buyer.deleted ? (
              t('adminOrder.buyer.deleted', { name: buyer.name })
            ) : (
              <Link key="name" to={`/admin/user/${buyer._id}/edit`} className="underline underline-offset-4">
                {buyer.name}
              </Link>
            ),
          ],
          [
            t('adminOrder.buyer.email'),
            <a key="email" href={`mailto:${buyer.email}`} className="break-all underline-offset-4 hover:underline">
              {buyer.email}
            </a>,
          ],
        ]}
      />
    </SectionCard>
  );
}

export function OrderItems({ items }: { items: Order['items'] }) {
  return (
    <SectionCard title={t('adminOrder.items.title')}>
      <ul className="flex flex-col gap-2 text-sm">
        {items.map((item) => (
          <li key={item.product} className="flex flex-col gap-0.5">
            <Link to={`/product/${item.product}`} className="font-medium underline-offset-4 hover:underline">
              {item.name}
            </Link>
            <span className="text-muted-foreground">
              {t('adminOrder.items.line', {
                qty: item.qty,
                price: formatUsd(item.price),
                total: formatUsd(lineTotal(item.price, item.qty)),
                daily: formatUsd(item.dailyCredit),
                days: item.durationDays,
              })}
            </span>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

export function OrderQuotes({ quotes }: { quotes: Order['quotes'] }) {
  return (
    <SectionCard title={t('adminOrder.quotes.title')}>
      {quotes.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('adminOrder.quotes.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-2 text-sm">
          {quotes.items.map((q) => (
            <li key={q._id} className="flex flex-col gap-0.5">
              <span className="tabular-nums">{t('adminOrder.quotes.line', { amount: q.amountText, usd: formatUsd(q.usdAmount), unit: formatAmount(q.unitUsd), asset: q.asset })}</span>
              <span className="text-xs text-muted-foreground">{t('adminOrder.quotes.valid', { from: formatTime(q.createdAt), to: formatTime(q.expiresAt) })}</span>
            </li>
          ))}
        </ul>
      )}
      <CappedNote shown={quotes.items.length} total={quotes.total} />
    </SectionCard>
  );
}

export function OrderDeliveries({ deliveries }: { deliveries: Order['deliveries'] }) {
  return (
    <SectionCard title={t('adminOrder.deliveries.title')}>
      {deliveries.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('adminOrder.deliveries.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-3 text-sm">
          {deliveries.items.map((d) => (
            <li key={d._id} className="flex flex-col gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono">{d.type}</span>
                <StatusBadge status={d.status} />
              </div>
              <span className="text-xs break-all text-muted-foreground">{d.endpoint.url}</span>
              <span className="text-xs text-muted-foreground">
                {t('adminOrder.deliveries.line', {
                  attempts: d.attempts,
                  answered: d.lastStatus !== null ? 'yes' : 'no',
                  lastStatus: d.lastStatus ?? '',
                  failed: d.lastError ? 'yes' : 'no',
                  lastError: d.lastError ?? '',
                  delivered: d.deliveredAt ? 'yes' : 'no',
                  time: formatTime(d.deliveredAt ?? d.createdAt),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <CappedNote shown={deliveries.items.length} total={deliveries.total} />
    </SectionCard>
  );
}
