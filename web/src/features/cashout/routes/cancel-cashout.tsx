import { useSearchParams } from 'react-router-dom';
import { Link } from '@/components/link';
import { Ban, ShieldAlert } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import type { CashoutCancelJson } from '@shop/core/contract';
import { getErrorMessage } from '@/lib/api-client';
import { formatAmount } from '@/lib/format';
import { clearUserInfo } from '@/stores/auth-store';
import { useCancelCashout } from '../api/cancel-cashout';
import { t } from '@/i18n/i18n';

const linkClass = 'font-medium text-foreground underline-offset-4 hover:underline';

/** What the link did, in sentences of the page's language (the api's answer in numbers). */
function cancelledText({ wallet, cancelled, returnedUsd, stillPaying }: CashoutCancelJson): string {
  const sentences = [
    cancelled > 0 ? t('cashout.cancel.returned', { amount: formatAmount(returnedUsd) }) : stillPaying > 0 ? '' : t('cashout.cancel.nothingWaiting'),
    stillPaying > 0 ? t('cashout.cancel.stillPaying') : '',
    t('cashout.cancel.blocked', { wallet }),
  ];
  return sentences.filter(Boolean).join(' ');
}

/**
 * /cashout/cancel?token=...: the link of the e-mail that announced a cashout to a wallet
 * new to the account. Opening it changes nothing (mail scanners open links): the owner
 * reads what it does and presses the button. Every session of the account ends then, this
 * browser's too.
 */
export function CancelCashoutPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const cancel = useCancelCashout();

  const submit = () => cancel.mutate({ token }, { onSuccess: () => clearUserInfo() });

  return (
    <div className="mx-auto w-full max-w-md py-4 sm:py-10">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold tracking-tight">{cancel.isSuccess ? t('cashout.cancel.done') : t('cashout.cancel.title')}</h1>
        </CardHeader>
        <CardContent className="grid gap-4">
          {cancel.isSuccess ? (
            <Alert role="status">
              <ShieldAlert aria-hidden="true" />
              {/* The message names the wallet: a 42-character word that must wrap on a phone. */}
              <AlertDescription className="[overflow-wrap:anywhere]">{cancelledText(cancel.data)}</AlertDescription>
            </Alert>
          ) : (
            <>
              <p className="text-sm">{t('cashout.cancel.explain')}</p>
              {!token ? (
                <Alert variant="destructive">
                  <AlertDescription>{t('cashout.cancel.noToken')}</AlertDescription>
                </Alert>
              ) : null}
              {cancel.isError ? (
                <Alert variant="destructive">
                  <AlertDescription>{getErrorMessage(cancel.error)}</AlertDescription>
                </Alert>
              ) : null}
              <Button variant="destructive" icon={<Ban aria-hidden="true" />} pending={cancel.isPending} disabled={cancel.isPending || !token} onClick={submit}>
                {t('cashout.cancel.button')}
              </Button>
            </>
          )}
        </CardContent>
        <CardFooter className="text-sm text-muted-foreground">
          {cancel.isSuccess ? (
            <Link to="/forgot-password" className={linkClass}>
              {t('cashout.cancel.newPassword')}
            </Link>
          ) : (
            <Link to="/login" className={linkClass}>
              {t('cashout.cancel.signIn')}
            </Link>
          )}
        </CardFooter>
      </Card>
    </div>
  );
}
