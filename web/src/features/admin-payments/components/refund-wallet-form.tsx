import { useState, type FormEvent } from 'react';
import { X } from 'lucide-react';
import { APPROVAL_REASON_MAX } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { t } from '@/i18n/i18n';
import type { RefundTarget } from '../api/refund-payment';
import { ADDRESS_PATTERN } from './inline-input-form';

type RefundWalletFormProps = {
  /** The address that sent the ETH (or who, in words): the refund goes there when the field is left empty. */
  sender: string | null;
  pending: boolean;
  onSubmit: (target: RefundTarget) => void;
  onCancel: () => void;
};

/**
 * A refund request's wallet (optional when the sender is known, required when it is not),
 * and a reason the approver reads when the refund is large enough to wait for a second
 * admin (the server decides; an empty field sends none).
 */
export function RefundWalletForm({ sender, pending, onSubmit, onCancel }: RefundWalletFormProps) {
  const [wallet, setWallet] = useState('');
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const named = wallet.trim();
    if (!named && sender === null) return;
    const why = reason.trim();
    onSubmit({ ...(named ? { wallet: named } : {}), ...(why ? { approvalReason: why } : {}) });
  };
  return (
    <form aria-label={t('adminPayments.refundForm.wallet')} className="flex min-w-72 flex-col gap-2" onSubmit={submit}>
      <Input
        aria-label={t('adminPayments.refundForm.wallet')}
        placeholder={sender ?? t('adminPayments.refundForm.walletRequired')}
        value={wallet}
        required={sender === null}
        autoFocus
        spellCheck={false}
        autoComplete="off"
        className="h-8 font-mono text-xs md:text-xs"
        pattern={ADDRESS_PATTERN}
        title={t(sender ? 'adminPayments.refundForm.walletHintSender' : 'adminPayments.refundForm.walletHint')}
        onChange={(event) => setWallet(event.target.value)}
      />
      <Input
        aria-label={t('adminPayments.refundForm.reason')}
        placeholder={t('adminPayments.refundForm.reasonPlaceholder')}
        value={reason}
        maxLength={APPROVAL_REASON_MAX}
        autoComplete="off"
        className="h-8 text-xs md:text-xs"
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="flex items-center justify-end gap-2">
        <Button type="submit" size="sm" pending={pending} disabled={pending}>
          {t('adminPayments.refundForm.submit')}
        </Button>
        <Button type="button" size="icon" variant="ghost" className="size-8" aria-label={t('adminPayments.cancel')} onClick={onCancel}>
          <X aria-hidden="true" />
        </Button>
      </div>
    </form>
  );
}
