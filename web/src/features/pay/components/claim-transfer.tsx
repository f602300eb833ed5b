import { useId, useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import { claimMessage } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { useClaimTransfer } from '../api/claim-transfer';
import type { PayWallet } from '../hooks/use-pay-wallet';
import { useWalletSignature } from '../hooks/use-wallet-signature';
import { WalletMessage } from './wallet-section';
import { t } from '@/i18n/i18n';

/** Not words: the start of what the field takes. */
const HEX_PLACEHOLDER = '0x…';

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * For a transfer that reached the shop without this order's tag (a wallet rounded the
 * amount): the buyer names the transaction and signs a message with the wallet that sent
 * it; the shop checks the signature and counts the transfer toward this order.
 */
export function ClaimTransfer({ orderId, wallet }: { orderId: string; wallet: PayWallet }) {
  const inputId = useId();
  const [txHash, setTxHash] = useState('');
  const sign = useWalletSignature(wallet);
  const claim = useClaimTransfer(orderId);
  const busy = sign.isPending || claim.isPending;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const hash = txHash.trim();
    const signature = await sign.signMessage(claimMessage(orderId, hash));
    if (!signature) return;
    claim.mutate(
      { txHash: hash, signature },
      {
        onSuccess: (result) => toast.success(result.orderStatus === 'PAID' ? t('pay.claim.claimedPaid') : t('pay.claim.claimed')),
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };

  return (
    <details className="rounded-lg border px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium">{t('pay.claim.summary')}</summary>
      <form className="mt-3 flex flex-col gap-3" aria-label={t('pay.claim.form')} onSubmit={(e) => void submit(e)}>
        <p className="text-muted-foreground">{t('pay.claim.explain')}</p>
        <div className="grid gap-1.5">
          <Label htmlFor={inputId}>{t('pay.claim.txHash')}</Label>
          <Input id={inputId} value={txHash} onChange={(e) => setTxHash(e.target.value)} placeholder={HEX_PLACEHOLDER} autoComplete="off" spellCheck={false} />
        </div>
        <Button pending={busy} type="submit" variant="outline" disabled={busy || !TX_HASH.test(txHash.trim())} className="w-fit">
          {t('pay.claim.submit')}
        </Button>
        {sign.error ? <WalletMessage message={sign.error} /> : null}
        {claim.isError ? <ErrorAlert error={claim.error} /> : null}
      </form>
    </details>
  );
}
