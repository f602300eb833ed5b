import { useId, useState } from 'react';
import { Link } from '@/components/link';
import { ArrowRightLeft, Wallet } from 'lucide-react';
import { toast } from '@/lib/toast';
import { BALANCE_CURRENCY, centsToString, toCents, usdAmount, type UserJson } from '@shop/core/contract';
import { BalanceAmount } from '@/components/balance-amount';
import { ConfirmAction } from '@/components/confirm-action';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { getServerMessage } from '@/lib/api-client';
import { formatAmount, formatMoney } from '@/lib/format';
import { useExchangeBalance } from '../api/exchange-balance';
import { NegativeBalanceNote } from './negative-balance-note';
import { OpenCashouts } from './open-cashouts';

function Amount({ label, value }: { label: string; value: number }) {
  return (
    <div className="grid gap-1">
      <span className="text-sm text-muted-foreground">{label}</span>
      <BalanceAmount value={value} />
      {value < 0 ? <NegativeBalanceNote /> : null}
    </div>
  );
}

/** The amount field's problem, or null: a positive amount in cents, at most the active balance. */
function amountProblem(text: string, active: number): string | null {
  const parsed = usdAmount.safeParse(text);
  if (!parsed.success) return t('users.balance.amountInvalid');
  const cents = toCents(parsed.data);
  if (cents <= 0n) return t('users.balance.amountZero');
  if (cents > toCents(active)) return t('users.balance.amountTooBig', { amount: formatAmount(active), currency: BALANCE_CURRENCY });
  return null;
}

/**
 * Passive balance, what it is for, and the exchange: the amount (the whole active balance
 * unless changed), then a question that says exactly what moves and what stays (an
 * exchange cannot be undone). The server moves that amount or nothing (409 when the
 * balance fell meanwhile). Active balance with the Cashout link.
 */
export function BalanceCard({ user }: { user: UserJson }) {
  const exchange = useExchangeBalance();
  const explainId = useId();
  const [typed, setTyped] = useState<string | null>(null);
  // One id per exchange until it succeeds: a retry after a lost answer is the same
  // exchange to the server, never a second one.
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const amount = typed ?? formatMoney(Math.max(user.activeBalance, 0));
  const problem = user.activeBalance > 0 ? amountProblem(amount, user.activeBalance) : null;
  const cents = problem ? 0n : toCents(usdAmount.safeParse(amount).data ?? '0');
  const after = (balance: number, change: bigint) => `${centsToString(toCents(balance) + change)} ${BALANCE_CURRENCY}`;

  const onExchange = () =>
    exchange.mutate(
      { amount: centsToString(cents), requestId },
      {
        onSuccess: () => {
          setTyped(null);
          setRequestId(crypto.randomUUID());
          toast.success(t('users.balance.exchanged'));
        },
        onError: (error) => toast.error(getServerMessage(error) ?? t('users.balance.exchangeFailed')),
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('users.balance.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        <div className="flex flex-col gap-3">
          <Amount label={t('users.balance.passive')} value={user.passiveBalance} />
          <p id={explainId} className="text-sm text-muted-foreground">
            {t('users.balance.passiveExplained')}
          </p>
          {user.activeBalance > 0 ? (
            <FormField
              label={t('users.balance.amount', { currency: BALANCE_CURRENCY })}
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onValueChange={setTyped}
              aria-invalid={problem ? true : undefined}
              hint={problem ?? t('users.balance.amountHint', { amount: formatAmount(user.activeBalance), currency: BALANCE_CURRENCY })}
            />
          ) : null}
          <ConfirmAction
            title={t('users.balance.confirmTitle')}
            description={t('users.balance.confirmDescription', {
              amount: centsToString(cents),
              currency: BALANCE_CURRENCY,
              active: after(user.activeBalance, -cents),
              passive: after(user.passiveBalance, cents),
            })}
            confirmLabel={t('users.balance.confirmLabel', { amount: centsToString(cents), currency: BALANCE_CURRENCY })}
            onConfirm={onExchange}
          >
            <Button variant="secondary" disabled={exchange.isPending || problem !== null || user.activeBalance <= 0} aria-describedby={explainId}>
              {exchange.isPending ? (
                <Spinner size="sm" aria-hidden="true" className="text-current" />
              ) : (
                <ArrowRightLeft aria-hidden="true" />
              )}
              {t('users.balance.exchange')}
            </Button>
          </ConfirmAction>
        </div>
        <div className="flex flex-col gap-3">
          <Amount label={t('users.balance.active')} value={user.activeBalance} />
          <Button asChild>
            <Link to="/profile/cashout">
              <Wallet aria-hidden="true" />
              {t('users.balance.cashout')}
            </Link>
          </Button>
          <OpenCashouts />
        </div>
      </CardContent>
    </Card>
  );
}
