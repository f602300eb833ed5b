import type { AdminOrderDetailJson, RefundJson } from '@shop/core/contract';
import { CappedNote, DetailList, FullHex, SectionCard } from '@/components/detail-list';
import { StatusBadge } from '@/components/status-badge';
import { t, type MessageKey } from '@/i18n/i18n';
import { formatTime, formatUsd } from '@/lib/format';
import { PayoutState } from './payout-state';
import { RefundActions } from './refund-actions';

const SOURCES: Record<RefundJson['source'], MessageKey> = { TRANSFER: 'adminOrder.refunds.sourceTransfer', OVERPAYMENT: 'adminOrder.refunds.sourceOverpayment' };

function Refund({ refund }: { refund: RefundJson }) {
  return (
    <li className="flex flex-col gap-3 border-t pt-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={refund.status} />
        <span className="text-sm">{t(SOURCES[refund.source])}</span>
      </div>
      <DetailList
        items={[
          [t('adminOrder.refunds.amount'), refund.amountUsd !== null ? t('adminPayments.withUsd', { amount: refund.amountText, usd: formatUsd(refund.amountUsd) }) : refund.amountText],
          [t('adminOrder.refunds.wallet'), <FullHex key="wallet" value={refund.wallet} />],
          [t('adminOrder.refunds.transfer'), <FullHex key="tx" value={refund.txHash} />],
          [t('adminOrder.refunds.payout'), refund.payoutTxHash ? <FullHex key="payout" value={refund.payoutTxHash} /> : <PayoutState key="payout" status={refund.status} payoutTxHash={null} check={refund.check} />],
          [t('adminOrder.refunds.requested'), formatTime(refund.createdAt)],
          ...(refund.paidAt ? [[t('adminOrder.refunds.paid'), formatTime(refund.paidAt)] as [string, string]] : []),
        ]}
      />
      <div className="flex justify-start">
        <RefundActions refund={refund} />
      </div>
    </li>
  );
}

/** Refunds of the order's overpayment or its transfers, with their payouts. */
export function OrderRefunds({ refunds }: { refunds: AdminOrderDetailJson['refunds'] }) {
  return (
    <SectionCard title={t('adminOrder.refunds.title')}>
        {refunds.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('adminOrder.refunds.empty')}</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {refunds.items.map((r) => (
              <Refund key={r._id} refund={r} />
            ))}
          </ul>
        )}
        <CappedNote shown={refunds.items.length} total={refunds.total} />
    </SectionCard>
  );
}
