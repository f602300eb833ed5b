import type { AdminOrderDetailJson } from '@shop/core/contract';
import { DetailList, FullHex, SectionCard } from '@/components/detail-list';
import { formatUsd } from '@/lib/format';
import { useRefundOverpayment } from '../api/refund-overpayment';
import { RequestRefundAction } from './request-refund-action';

type Overpayment = NonNullable<AdminOrderDetailJson['overpayment']>;

/** What is left of an overpayment, and its refund (paid out from the Cashouts page). */
export function OrderOverpayment({ orderId, overpayment }: { orderId: string; overpayment: Overpayment }) {
  const refund = useRefundOverpayment();
  return (
    <SectionCard title="Overpayment">
      <DetailList
        items={[
          ['Left to settle', `${formatUsd(overpayment.usd)} (${overpayment.eth} ETH)`],
          ['Sent by', overpayment.from ? <FullHex key="from" value={overpayment.from} /> : 'Several addresses'],
        ]}
      />
      <div className="flex justify-start">
        <RequestRefundAction
          sender={overpayment.refundable ? (overpayment.from ?? "each transfer's own sender") : null}
          label="Refund overpayment"
          pending={refund.isPending}
          mutate={(target, { onSuccess, onError }) => refund.mutate({ orderId, ...target }, { onSuccess: () => onSuccess(), onError })}
        />
      </div>
    </SectionCard>
  );
}
