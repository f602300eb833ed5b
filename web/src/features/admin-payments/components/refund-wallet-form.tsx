import { ADDRESS_PATTERN, InlineInputForm } from './inline-input-form';

type RefundWalletFormProps = {
  /** The address that sent the ETH (or who, in words): the refund goes there when the field is left empty. */
  sender: string | null;
  pending: boolean;
  /** '' for the sender's address. */
  onSubmit: (wallet: string) => void;
  onCancel: () => void;
};

/** A refund request's wallet: optional when the sender is known, required when it is not. */
export function RefundWalletForm({ sender, pending, onSubmit, onCancel }: RefundWalletFormProps) {
  return (
    <InlineInputForm
      label="Refund wallet"
      placeholder={sender ?? 'Wallet to refund (required)'}
      required={sender === null}
      submitLabel="Request refund"
      pattern={ADDRESS_PATTERN}
      patternHint={`0x followed by 40 hex characters${sender ? '; leave it empty to refund the sender' : ''}`}
      pending={pending}
      onCancel={onCancel}
      onSubmit={onSubmit}
    />
  );
}
