import { useId, useState, type FormEvent } from 'react';
import { ChevronDown } from 'lucide-react';
import { toast } from '@/lib/toast';
import { isEthAddress, refundWalletMessage, type RefundJson } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { shortHex } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useChangeRefundWallet } from '../api/change-refund-wallet';
import type { PayWallet } from '../hooks/use-pay-wallet';
import { useWalletSignature } from '../hooks/use-wallet-signature';
import { WalletMessage } from './wallet-section';
import { t } from '@/i18n/i18n';

/** Not words: the start of what the field takes. */
const HEX_PLACEHOLDER = '0x…';

type RefundWalletFormProps = { orderId: string; refund: RefundJson; wallet: PayWallet };

/**
 * A requested refund sent to another wallet than the one it goes to: the address that
 * sent the refunded ETH signs for the new wallet (connected here when it is not yet).
 */
export function RefundWalletForm({ orderId, refund, wallet }: RefundWalletFormProps) {
  const formId = useId();
  const inputId = useId();
  const hintId = useId();
  const [open, setOpen] = useState(false);
  const [newWallet, setNewWallet] = useState('');
  const sign = useWalletSignature(wallet);
  const change = useChangeRefundWallet(orderId);
  const busy = sign.isPending || change.isPending;
  const address = newWallet.trim();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    change.reset();
    const signature = await sign.signMessage(refundWalletMessage(refund._id, address));
    if (!signature) return;
    change.mutate(
      { refundId: refund._id, wallet: address, signature },
      {
        onSuccess: (updated) => {
          toast.success(t('pay.refundWallet.changed', { wallet: shortHex(updated.wallet, 6, 4) }));
          setNewWallet('');
          setOpen(false);
        },
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };

  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        variant="ghost"
        size="sm"
        className="w-fit px-2"
        aria-expanded={open}
        aria-controls={open ? formId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {t('pay.refundWallet.toggle')}
        <ChevronDown aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
      </Button>
      {open ? (
        <form
          id={formId}
          className="flex flex-col gap-3 rounded-lg border p-3"
          aria-label={t('pay.refundWallet.form')}
          onSubmit={(e) => void submit(e)}
        >
          <p id={hintId} className="text-muted-foreground">
            {t('pay.refundWallet.hint')}
          </p>
          <div className="grid gap-1.5">
            <Label htmlFor={inputId}>{t('pay.refundWallet.newWallet')}</Label>
            <Input
              id={inputId}
              value={newWallet}
              onChange={(e) => setNewWallet(e.target.value)}
              placeholder={HEX_PLACEHOLDER}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={hintId}
            />
          </div>
          <Button pending={busy} type="submit" variant="outline" disabled={busy || !isEthAddress(address)} className="w-fit">
            {t('pay.refundWallet.submit')}
          </Button>
          {sign.error ? <WalletMessage message={sign.error} /> : null}
          {change.isError ? <ErrorAlert error={change.error} /> : null}
        </form>
      ) : null}
    </div>
  );
}
