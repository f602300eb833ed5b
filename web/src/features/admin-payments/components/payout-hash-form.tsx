import { InlineInputForm, TX_HASH_PATTERN } from './inline-input-form';

/** What an admin reads after giving a payout's hash: nothing is paid until the worker has verified it. */
export function payoutVerifyingToast(what: 'Cashout' | 'Refund'): string {
  return `${what} payout submitted. Its transaction is being verified on chain.`;
}

type PayoutHashFormProps = { pending: boolean; onSubmit: (payoutTxHash: string) => void; onCancel: () => void };

/** The hash of the transaction that sent a cashout or a refund. */
export function PayoutHashForm({ pending, onSubmit, onCancel }: PayoutHashFormProps) {
  return (
    <InlineInputForm
      label="Payout tx hash"
      submitLabel="Save"
      pattern={TX_HASH_PATTERN}
      patternHint="0x followed by 64 hex characters"
      pending={pending}
      onCancel={onCancel}
      onSubmit={onSubmit}
    />
  );
}
