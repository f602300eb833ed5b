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
import { formatTime, formatAmount } from '@/lib/format';
import { t } from '@/i18n/i18n';

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
            <AlertDialogTitle>{t('cashout.confirm.title')}</AlertDialogTitle>
            <AlertDialogDescription>{t('cashout.confirm.description')}</AlertDialogDescription>
          </AlertDialogHeader>
          <DetailList
            items={[
              [
                t('cashout.confirm.amount'),
                eth
                  ? t('cashout.confirm.amountEth', { amount: formatAmount(preview.amountUsd), currency: BALANCE_CURRENCY, eth })
                  : t('cashout.confirm.amountValue', { amount: formatAmount(preview.amountUsd), currency: BALANCE_CURRENCY }),
              ],
              [t('cashout.confirm.wallet'), <FullHex key="wallet" value={preview.wallet} />],
            ]}
          />
          {preview.newWallet ? (
            <Alert role="note" className="border-amber-500/40 bg-amber-500/10">
              <MailWarning aria-hidden="true" className="text-amber-600" />
              <AlertTitle>{t('cashout.confirm.newWallet')}</AlertTitle>
              <AlertDescription>
                {preview.holdUntil
                  ? t('cashout.confirm.heldUntil', { time: formatTime(preview.holdUntil) })
                  : t('cashout.confirm.notHeld')}
              </AlertDescription>
            </Alert>
          ) : (
            <p className="text-sm text-muted-foreground">{t('cashout.payoutTimeText')}</p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel>{t('cashout.confirm.cancel')}</AlertDialogCancel>
            <AlertDialogAction className={buttonVariants()} onClick={onConfirm}>
              {t('cashout.confirm.button')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      ) : null}
    </AlertDialog>
  );
}
