import type { AdminOrderDetailJson } from '@shop/core/contract';
import { CappedNote, DetailList, FullHex, SectionCard } from '@/components/detail-list';
import { StatusBadge } from '@/components/status-badge';
import { paymentAmount } from '@/lib/asset-amount';
import { t } from '@/i18n/i18n';
import { formatTime, formatUsd } from '@/lib/format';
import { PaymentActions } from './payment-actions';

type Payment = AdminOrderDetailJson['payments']['items'][number];

/** Transfers an admin resolves: assign or refund (the Payments page's actions). */
const NEEDS_ADMIN = new Set(['UNRESOLVED', 'LATE']);

function Transfer({ payment }: { payment: Payment }) {
  const confirmed = t('adminOrder.transfers.confirmed', { count: Math.min(payment.confirmations, payment.requiredConfirmations), required: payment.requiredConfirmations });
  return (
    <li className="flex flex-col gap-3 border-t pt-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={payment.status} />
        {payment.reportedOnly ? <span className="text-xs text-muted-foreground">{t('adminOrder.transfers.reportedOnly')}</span> : null}
      </div>
      <DetailList
        items={[
          [t('adminOrder.transfers.transaction'), <FullHex key="tx" value={payment.txHash} />],
          [t('adminOrder.transfers.value'), payment.usdValue !== null ? t('adminPayments.withUsd', { amount: paymentAmount(payment), usd: formatUsd(payment.usdValue) }) : paymentAmount(payment)],
          [t('adminOrder.transfers.confirmations'), confirmed],
          [t('adminOrder.transfers.block'), payment.blockNumber ?? '—'],
          [t('adminOrder.transfers.from'), <FullHex key="from" value={payment.from} />],
          [t('adminOrder.transfers.seen'), formatTime(payment.createdAt)],
          ...(payment.reason ? [[t('adminOrder.transfers.reason'), payment.reason] as [string, string]] : []),
          ...(payment.refund ? [[t('adminOrder.transfers.refund'), t(payment.refund.status === 'PAID' ? 'adminOrder.transfers.refundPaid' : 'adminOrder.transfers.refundRequested', { wallet: payment.refund.wallet })] as [string, string]] : []),
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
    <SectionCard title={t('adminOrder.transfers.title')}>
        {payments.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('adminOrder.transfers.empty')}</p>
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
