import type { AdminOrderDetailJson } from '@shop/core/contract';
import { CappedNote, DetailList, FullHex, SectionCard } from '@/components/detail-list';
import { StatusBadge } from '@/components/status-badge';
import { paymentAmount } from '@/lib/asset-amount';
import { formatTime, formatUsd } from '@/lib/format';
import { PaymentActions } from './payment-actions';

type Payment = AdminOrderDetailJson['payments']['items'][number];

/** Transfers an admin resolves: assign or refund (the Payments page's actions). */
const NEEDS_ADMIN = new Set(['UNRESOLVED', 'LATE']);

function Transfer({ payment }: { payment: Payment }) {
  const confirmed = `${Math.min(payment.confirmations, payment.requiredConfirmations)} of ${payment.requiredConfirmations}`;
  return (
    <li className="flex flex-col gap-3 border-t pt-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={payment.status} />
        {payment.reportedOnly ? <span className="text-xs text-muted-foreground">Reported for this order, not attributed to it</span> : null}
      </div>
      <DetailList
        items={[
          ['Transaction', <FullHex key="tx" value={payment.txHash} />],
          ['Value', `${paymentAmount(payment)}${payment.usdValue !== null ? ` (${formatUsd(payment.usdValue)})` : ''}`],
          ['Confirmations', confirmed],
          ['Block', payment.blockNumber ?? '—'],
          ['From', <FullHex key="from" value={payment.from} />],
          ['Seen', formatTime(payment.createdAt)],
          ...(payment.reason ? [['Reason', payment.reason] as [string, string]] : []),
          ...(payment.refund ? [['Refund', `${payment.refund.status === 'PAID' ? 'Paid' : 'Requested'} to ${payment.refund.wallet}`] as [string, string]] : []),
        ]}
      />
      {NEEDS_ADMIN.has(payment.status) ? (
        <div className="flex justify-start">
          <PaymentActions payment={payment} />
        </div>
      ) : null}
    </li>
  );
}

/** The order's transfers: what arrived, how far it is confirmed, and why one does not count. */
export function OrderTransfers({ payments }: { payments: AdminOrderDetailJson['payments'] }) {
  return (
    <SectionCard title="Transfers">
        {payments.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No transfer has arrived for this order.</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {payments.items.map((p) => (
              <Transfer key={p._id} payment={p} />
            ))}
          </ul>
        )}
        <CappedNote shown={payments.items.length} total={payments.total} />
    </SectionCard>
  );
}
