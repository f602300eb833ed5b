import type { AdminOrderDetailJson } from '@shop/core/contract';
import { DetailList, FullHex, SectionCard } from '@/components/detail-list';
import { t } from '@/i18n/i18n';
import { formatUsd } from '@/lib/format';
import { useRefundOverpayment } from '../api/refund-overpayment';
import { RequestRefundAction } from './request-refund-action';

type Overpayment = NonNullable<AdminOrderDetailJson['overpayment']>;

/** What is left of an overpayment, and its refund (paid out from the Cashouts page). */
export function OrderOverpayment({ orderId, overpayment }: { orderId: string; overpayment: Overpayment }) {
  const refund = useRefundOverpayment();
  return (
    <SectionCard title={t('adminOrder.overpayment.title')}>
      <DetailList
        items={[
          [t('adminOrder.overpayment.left'), t('adminOrder.overpayment.leftValue', { usd: formatUsd(overpayment.usd), eth: overpayment.eth })],
          [t('adminOrder.overpayment.sentBy'), overpayment.from ? <FullHex key="from" value={overpayment.from} /> : t('adminOrder.overpayment.several')],
        ]}
      />
      <div className="flex justify-start">
        <RequestRefundAction
          sender={overpayment.refundable ? (overpayment.from ?? t('adminPayments.overpayment.eachSender')) : null}
          label={t('adminPayments.overpayment.refund')}
          pending={refund.isPending}
          mutate={(target, { onSuccess, onError }) => refund.mutate({ orderId, ...target }, { onSuccess: () => onSuccess(), onError })}
        />
      </div>
    </SectionCard>
  );
}
