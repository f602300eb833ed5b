import type { AdminOrderDetailJson, RefundJson } from '@shop/core/contract';
import { CappedNote, DetailList, FullHex, SectionCard } from '@/components/detail-list';
import { StatusBadge } from '@/components/status-badge';
import { formatTime, formatUsd } from '@/lib/format';
import { PayoutState } from './payout-state';
import { RefundActions } from './refund-actions';

const SOURCES: Record<RefundJson['source'], string> = { TRANSFER: 'A transfer', OVERPAYMENT: 'Overpayment' };

function Refund({ refund }: { refund: RefundJson }) {
  return (
    <li className="flex flex-col gap-3 border-t pt-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={refund.status} />
        <span className="text-sm">{SOURCES[refund.source]}</span>
      </div>
      <DetailList
        items={[
          ['Amount', `${refund.amountText}${refund.amountUsd !== null ? ` (${formatUsd(refund.amountUsd)})` : ''}`],
          ['Wallet', <FullHex key="wallet" value={refund.wallet} />],
          ['Refunded transfer', <FullHex key="tx" value={refund.txHash} />],
          ['Payout', refund.payoutTxHash ? <FullHex key="payout" value={refund.payoutTxHash} /> : <PayoutState key="payout" status={refund.status} payoutTxHash={null} check={refund.check} />],
          ['Requested', formatTime(refund.createdAt)],
          ...(refund.paidAt ? [['Paid', formatTime(refund.paidAt)] as [string, string]] : []),
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
    <SectionCard title="Refunds">
        {refunds.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing was refunded for this order.</p>
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
