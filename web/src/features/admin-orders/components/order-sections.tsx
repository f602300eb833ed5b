import type { ReactNode } from 'react';
import { Link } from '@/components/link';
import type { AdminOrderDetailJson } from '@shop/core/contract';
import { CappedNote, DetailList, SectionCard } from '@/components/detail-list';
import { StatusBadge } from '@/components/status-badge';
import { formatTime, formatUsd } from '@/lib/format';
import { lineTotal } from '@/lib/line-total';

type Order = AdminOrderDetailJson;

/** Money and dates: what was due, what arrived, what is left over. */
export function OrderSummary({ order }: { order: Order }) {
  return (
    <SectionCard title="Summary">
      <DetailList
        items={[
          ['Total', formatUsd(order.totalPrice)],
          ['Received', formatUsd(order.paidUsd)],
          ['Overpaid', order.overpaidUsd > 0 ? `${formatUsd(order.overpaidUsd)} (${formatUsd(order.overpaidSettledUsd)} refunded or credited)` : '—'],
          ['Placed', formatTime(order.createdAt)],
          ...(order.paymentDeadline && !order.isPaid ? [['Pay by', formatTime(order.paymentDeadline)] as [string, string]] : []),
          ...(order.paidAt ? [['Paid', formatTime(order.paidAt)] as [string, string]] : []),
          ...(order.expiresAt ? [['Runs until', formatTime(order.expiresAt)] as [string, string]] : []),
          ...(order.cancelledAt ? [['Cancelled', formatTime(order.cancelledAt)] as [string, string]] : []),
          ...(order.deletedAt ? [['Deleted', formatTime(order.deletedAt)] as [string, string]] : []),
          ...(order.depositAddress
            ? [['Deposit address', <code key="deposit" className="font-mono text-xs break-all">{order.depositAddress}</code>] as [string, ReactNode]]
            : []),
        ]}
      />
    </SectionCard>
  );
}

export function OrderBuyer({ buyer }: { buyer: Order['buyer'] }) {
  return (
    <SectionCard title="Buyer">
      <DetailList
        items={[
          [
            'Name',
            buyer.deleted ? (
              `${buyer.name} (account deleted)`
            ) : (
              <Link key="name" to={`/admin/user/${buyer._id}/edit`} className="underline underline-offset-4">
                {buyer.name}
              </Link>
            ),
          ],
          [
            'E-mail',
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
    <SectionCard title="Items">
      <ul className="flex flex-col gap-2 text-sm">
        {items.map((item) => (
          <li key={item.product} className="flex flex-col gap-0.5">
            <Link to={`/product/${item.product}`} className="font-medium underline-offset-4 hover:underline">
              {item.name}
            </Link>
            <span className="text-muted-foreground">
              {`${item.qty} x ${formatUsd(item.price)} = ${formatUsd(lineTotal(item.price, item.qty))}; ${formatUsd(item.dailyCredit)} a day for ${item.durationDays} days`}
            </span>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

export function OrderQuotes({ quotes }: { quotes: Order['quotes'] }) {
  return (
    <SectionCard title="Quotes">
      {quotes.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No quote was issued.</p>
      ) : (
        <ul className="flex flex-col gap-2 text-sm">
          {quotes.items.map((q) => (
            <li key={q._id} className="flex flex-col gap-0.5">
              <span className="tabular-nums">{`${q.amountText} for ${formatUsd(q.usdAmount)} at $${Number(q.unitUsd).toFixed(2)} per ${q.asset}`}</span>
              <span className="text-xs text-muted-foreground">{`${formatTime(q.createdAt)} until ${formatTime(q.expiresAt)}`}</span>
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
    <SectionCard title="Webhook deliveries">
      {deliveries.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No event of this order went to a webhook endpoint.</p>
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
                {`${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${d.lastStatus !== null ? `, last answer ${d.lastStatus}` : ''}${d.lastError ? `: ${d.lastError}` : ''}; ${
                  d.deliveredAt ? `delivered ${formatTime(d.deliveredAt)}` : `queued ${formatTime(d.createdAt)}`
                }`}
              </span>
            </li>
          ))}
        </ul>
      )}
      <CappedNote shown={deliveries.items.length} total={deliveries.total} />
    </SectionCard>
  );
}
