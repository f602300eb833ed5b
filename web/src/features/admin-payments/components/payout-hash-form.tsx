import { t } from '@/i18n/i18n';
import { InlineInputForm, TX_HASH_PATTERN } from './inline-input-form';

/** What an admin reads after giving a payout's hash: nothing is paid until the worker has verified it. */
export function payoutVerifyingToast(what: 'Cashout' | 'Refund'): string {
  return t(what === 'Cashout' ? 'adminPayments.markPaid.cashoutSubmitted' : 'adminPayments.markPaid.refundSubmitted');
}

type PayoutHashFormProps = { pending: boolean; onSubmit: (payoutTxHash: string) => void; onCancel: () => void };

/** The hash of the transaction that sent a cashout or a refund. */
export function PayoutHashForm({ pending, onSubmit, onCancel }: PayoutHashFormProps) {
  return (
    <InlineInputForm
      label={t('adminPayments.payoutHash.label')}
      submitLabel={t('adminPayments.payoutHash.save')}
      pattern={TX_HASH_PATTERN}
      patternHint={t('adminPayments.payoutHash.hint')}
      pending={pending}
      onCancel={onCancel}
      onSubmit={onSubmit}
    />
  );
}
