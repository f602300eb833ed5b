import { Link } from 'react-router-dom';
import { ArrowRightLeft, Wallet } from 'lucide-react';
import { toast } from 'sonner';
import { BALANCE_CURRENCY, type UserJson } from '@shop/core/contract';
import { BalanceAmount } from '@/components/balance-amount';
import { ConfirmAction } from '@/components/confirm-action';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { getServerMessage } from '@/lib/api-client';
import { formatMoney } from '@/lib/format';
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

/**
 * Passive balance with the exchange button (it asks first: an exchange cannot be undone);
 * active balance with the Cashout link.
 */
export function BalanceCard({ user }: { user: UserJson }) {
  const exchange = useExchangeBalance();

  const onExchange = () =>
    exchange.mutate(undefined, {
      onSuccess: (result) => toast.success(result.message || 'Balance exchanged!'),
      onError: (error) => toast.error(getServerMessage(error) ?? 'Exchange failed'),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Balance</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        <div className="flex flex-col gap-3">
          <Amount label="Passive Balance" value={user.passiveBalance} />
          <ConfirmAction
            title="Exchange to Passive Balance?"
            description={`All of your active balance, ${formatMoney(user.activeBalance)} ${BALANCE_CURRENCY}, moves to your passive balance. It cannot be moved back.`}
            confirmLabel="Exchange"
            onConfirm={onExchange}
          >
            <Button variant="secondary" disabled={exchange.isPending}>
              {exchange.isPending ? (
                <Spinner size="sm" aria-hidden="true" className="text-current" />
              ) : (
                <ArrowRightLeft aria-hidden="true" />
              )}
              Exchange to Passive Balance
            </Button>
          </ConfirmAction>
        </div>
        <div className="flex flex-col gap-3">
          <Amount label="Active Balance" value={user.activeBalance} />
          <Button asChild>
            <Link to="/profile/cashout">
              <Wallet aria-hidden="true" />
              Cashout
            </Link>
          </Button>
          <OpenCashouts />
        </div>
      </CardContent>
    </Card>
  );
}
