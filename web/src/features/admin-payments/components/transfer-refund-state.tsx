import type { AdminPaymentJson } from '@shop/core/contract';
import { shortHex } from '@/lib/format';
import { t } from '@/i18n/i18n';
import { marks, withParts } from '@/i18n/rich-text';

/** A refunded transfer's refund: 'Refund requested to 0x…' until its payout is verified, then 'Refunded in 0x…'. */
export function TransferRefundState({ refund }: { refund: AdminPaymentJson['refund'] }) {
  if (!refund) return <span className="text-muted-foreground">—</span>;
  if (refund.status === 'PAID' && refund.payoutTxHash) {
    return (
      <span title={refund.payoutTxHash} className="text-xs text-success">
        {withParts(t('adminPayments.refundState.refunded', marks('hash')), { hash: <span className="font-mono">{shortHex(refund.payoutTxHash)}</span> })}
      </span>
    );
  }
  return (
    <span title={refund.wallet} className="text-xs">
      {withParts(t('adminPayments.refundState.requested', marks('hash')), { hash: <span className="font-mono">{shortHex(refund.wallet)}</span> })}
    </span>
  );
}
