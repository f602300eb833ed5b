import { MailWarning } from 'lucide-react';
import { BALANCE_CURRENCY, usdToEth, type CashoutPreviewJson } from '@shop/core/contract';
import { DetailList, FullHex } from '@/components/detail-list';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { buttonVariants } from '@/components/ui/button';
import { formatTime, formatMoney } from '@/lib/format';

type CashoutConfirmProps = {
  /** What the server says the cashout would do; the dialog is open while there is one. */
  preview: CashoutPreviewJson | null;
  /** USD per ETH, when the price is known: the amount in ETH is shown beside it. */
  ethPrice: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * Before money leaves: the amount (and about how much ETH), the wallet in full, and, for
 * a wallet the account was never paid to, that the owner is e-mailed a link to cancel it
 * and that it waits until a time. Nothing is sent until 'Confirm cashout'.
 */
export function CashoutConfirm({ preview, ethPrice, onConfirm, onCancel }: CashoutConfirmProps) {
  const eth = preview && ethPrice ? usdToEth(preview.amountUsd, ethPrice) : undefined;
  return (
    <AlertDialog open={preview !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      {preview ? (
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Confirm your cashout</AlertDialogTitle>
            <AlertDialogDescription>Your whole active balance leaves your account for this wallet on Ethereum Mainnet.</AlertDialogDescription>
          </AlertDialogHeader>
          <DetailList
            items={[
              ['Amount', `${formatMoney(preview.amountUsd)} ${BALANCE_CURRENCY}${eth ? ` (about ${eth} ETH)` : ''}`],
              ['Wallet', <FullHex key="wallet" value={preview.wallet} />],
            ]}
          />
          {preview.newWallet ? (
            <Alert role="note" className="border-amber-500/40 bg-amber-500/10">
              <MailWarning aria-hidden="true" className="text-amber-600" />
              <AlertTitle>A wallet new to your account</AlertTitle>
              <AlertDescription>
                {preview.holdUntil
                  ? `We e-mail you about it at once, with a link to cancel it, and it waits until ${formatTime(preview.holdUntil)} before it is paid.`
                  : 'We e-mail you about it at once, with a link to cancel it while it is not paid.'}
              </AlertDescription>
            </Alert>
          ) : (
            <p className="text-sm text-muted-foreground">Coins are sent to your wallet within 1-24 hours.</p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction className={buttonVariants()} onClick={onConfirm}>
              Confirm cashout
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      ) : null}
    </AlertDialog>
  );
}
