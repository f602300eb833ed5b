import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { CircleAlert, Wallet } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { CashoutPreviewJson, UserJson } from '@shop/core/contract';
import { useEthPrice } from '@/api/get-eth-price';
import { ErrorAlert } from '@/components/error-alert';
import { BalanceAmount } from '@/components/balance-amount';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { getErrorMessage, getServerMessage } from '@/lib/api-client';
import { usePreviewCashout } from '../api/preview-cashout';
import { useRequestCashout } from '../api/request-cashout';
import { canCashout, notEnoughMoney } from '../cashout-rules';
import { usdToEth } from '@shop/core/contract';
import { CashoutConfirm } from './cashout-confirm';

/** Not words: the start of what the field takes. */
const HEX_PLACEHOLDER = '0x...';
import { t } from '@/i18n/i18n';

/** 'Cashout (x)' with x = balance / ETH price; a spinner while the price loads. */
function CashoutLabel({ activeBalance }: { activeBalance: number }) {
  const price = useEthPrice();
  if (price.isPending) {
    return (
      <>
        {t('cashout.button')}
        <Spinner size="sm" label={t('cashout.loadingPrice')} className="text-current" />
      </>
    );
  }
  const eth = price.data ? usdToEth(activeBalance, price.data.price) : undefined;
  return <>{eth === undefined ? t('cashout.button') : t('cashout.buttonEth', { eth })}</>;
}

/**
 * The active balance, the wallet field and the button, with the SPEC's client check. The
 * button asks the server what the cashout would do and shows it for confirmation; only
 * 'Confirm cashout' sends it (a second factor is asked for then, when the account has one).
 */
export function CashoutForm({ user }: { user: UserJson }) {
  const navigate = useNavigate();
  const price = useEthPrice();
  const preview = usePreviewCashout();
  const cashout = useRequestCashout();
  const [wallet, setWallet] = useState('');
  const [problem, setProblem] = useState<string>();
  const [confirming, setConfirming] = useState<CashoutPreviewJson | null>(null);

  const fail = (message: string) => {
    setProblem(message);
    toast.error(message);
  };
  const failWith = (error: unknown) => fail(getServerMessage(error) ?? getErrorMessage(error));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(undefined);
    // SPEC.md section 5: strictly above the minimum, checked before any call.
    if (!canCashout(user.activeBalance)) {
      fail(notEnoughMoney());
      return;
    }
    preview.mutate({ wallet: wallet.trim() }, { onSuccess: setConfirming, onError: failWith });
  };

  const confirm = () => {
    if (!confirming) return;
    setConfirming(null);
    cashout.mutate(
      { wallet: confirming.wallet },
      {
        onSuccess: () => {
          toast.success(t('cashout.success'));
          navigate('/profile');
        },
        onError: failWith,
      },
    );
  };
  const pending = preview.isPending || cashout.isPending;

  return (
    <form className="grid gap-5" aria-label={t('cashout.button')} onSubmit={submit}>
      <div className="grid gap-1">
        <span className="text-sm text-muted-foreground">{t('cashout.activeBalance')}</span>
        <BalanceAmount value={user.activeBalance ?? 0} />
      </div>
      <FormField
        label={t('cashout.wallet')}
        name="wallet"
        placeholder={HEX_PLACEHOLDER}
        autoComplete="off"
        spellCheck={false}
        required
        value={wallet}
        onValueChange={setWallet}
        hint={t('cashout.walletHint')}
      />
      {price.isError ? <ErrorAlert error={price.error} /> : null}
      {problem ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{problem}</AlertDescription>
        </Alert>
      ) : null}
      <Button type="submit" size="lg" className="w-full sm:w-fit" disabled={pending}>
        {pending ? (
          <Spinner size="sm" aria-hidden="true" className="text-current" />
        ) : (
          <Wallet aria-hidden="true" />
        )}
        <CashoutLabel activeBalance={user.activeBalance} />
      </Button>
      <CashoutConfirm preview={confirming} ethPrice={price.data?.price} onConfirm={confirm} onCancel={() => setConfirming(null)} />
    </form>
  );
}
