import { Link } from '@/components/link';
import { ReceiptText } from 'lucide-react';
import { orderReference, type MyCashoutJson, type StatementEntryJson } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatTime, formatDay, formatMoney, shortHex } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useStatement } from '../api/get-statement';

const ACCOUNT = { ACTIVE: 'Active', PASSIVE: 'Passive' } as const;

/** Where a cashout stands, in words a buyer reads (REQUESTED and NOTIFIED both wait for an admin). */
export function cashoutState(cashout: MyCashoutJson): { text: string; variant: 'secondary' | 'success' | 'destructive' } {
  if (cashout.status === 'PAID') return { text: 'Paid', variant: 'success' };
  if (cashout.status === 'REJECTED') return { text: 'Rejected', variant: 'destructive' };
  if (cashout.status === 'CANCELLED') return { text: 'Cancelled', variant: 'destructive' };
  if (cashout.status === 'HELD') return { text: `New wallet: held until ${formatDay(cashout.holdUntil)}`, variant: 'secondary' };
  return { text: 'Waiting to be paid', variant: 'secondary' };
}

/** What a line of the statement is, in a buyer's words. */
export function entryTitle(entry: StatementEntryJson): string {
  switch (entry.kind) {
    case 'DAILY_CREDIT':
      return 'Daily package credit';
    case 'REFERRAL_REWARD':
      return entry.from ? `Referral reward from ${entry.from}` : 'Referral reward';
    case 'REFERRAL_REVERSAL':
      return entry.from ? `Referral reward taken back (${entry.from}'s payment left the chain)` : 'Referral reward taken back';
    case 'EXCHANGE':
      return entry.account === 'PASSIVE' ? 'Exchange from active balance' : 'Exchange to passive balance';
    case 'CASHOUT':
      if (!entry.cashoutReturned) return 'Cashout requested';
      return entry.cashout?.status === 'CANCELLED' ? 'Cashout cancelled: amount returned' : 'Cashout rejected: amount returned';
    case 'ADMIN_ADJUSTMENT':
      return 'Adjustment by the shop';
    case 'OVERPAYMENT_CREDIT':
      return 'Overpayment added to balance';
  }
}

function EntryDetail({ entry }: { entry: StatementEntryJson }) {
  const { cashout, order } = entry;
  return (
    <>
      {order ? (
        <Link to={`/order/${order._id}`} className="font-mono text-xs underline underline-offset-4">
          {orderReference(order._id)}
        </Link>
      ) : null}
      {cashout && !entry.cashoutReturned ? (
        <span className="flex flex-wrap items-center gap-2">
          <Badge variant={cashoutState(cashout).variant}>{cashoutState(cashout).text}</Badge>
          {cashout.payoutTxHash ? (
            <span className="text-xs">
              paid by <code className="break-all font-mono" title={cashout.payoutTxHash}>{shortHex(cashout.payoutTxHash, 10, 8)}</code>
            </span>
          ) : (
            <span className="text-xs">to {shortHex(cashout.wallet, 6, 4)}</span>
          )}
        </span>
      ) : null}
    </>
  );
}

/** A signed amount with its unit: '+2.50 USD', '-40.00 USD'. */
export function signedAmount(amount: string, currency: string): string {
  const negative = amount.startsWith('-');
  return `${negative ? '-' : '+'}${formatMoney(negative ? amount.slice(1) : amount)} ${currency}`;
}

/**
 * The profile's statement: every change of the user's balances, newest first, from the
 * ledger (daily credit, referral rewards and from whom, exchanges, cashouts and where each
 * stands, the shop's adjustments), a page at a time.
 */
export function StatementCard() {
  const list = useStatement();
  const entries = list.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Statement</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading the statement" />
          </div>
        ) : list.isError ? (
          <ErrorAlert error={list.error} />
        ) : entries.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <ReceiptText aria-hidden="true" className="size-4" />
            Nothing yet: daily credit, referral rewards and cashouts show here.
          </p>
        ) : (
          <ul aria-label="Statement" className="divide-y">
            {entries.map((entry) => (
              <li key={entry._id} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 py-3">
                <span className="font-medium">{entryTitle(entry)}</span>
                <span className={cn('text-right font-semibold tabular-nums', entry.amount.startsWith('-') ? 'text-destructive' : 'text-success')}>
                  {signedAmount(entry.amount, entry.currency)}
                </span>
                <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
                  <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
                  <EntryDetail entry={entry} />
                </span>
                <span className="text-right text-xs text-muted-foreground">{ACCOUNT[entry.account]} balance</span>
              </li>
            ))}
          </ul>
        )}
        <LoadMore list={list} label="Earlier entries" />
      </CardContent>
    </Card>
  );
}
