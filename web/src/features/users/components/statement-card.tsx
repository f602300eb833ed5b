import { Link } from '@/components/link';
import { ReceiptText } from 'lucide-react';
import { orderReference, type MyCashoutJson, type StatementEntryJson } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatTime, formatDay, shortHex, signedAmount } from '@/lib/format';
import { cn } from '@/lib/utils';
import { t } from '@/i18n/i18n';
import { useStatement } from '../api/get-statement';

const ACCOUNT = { ACTIVE: 'users.statement.activeBalance', PASSIVE: 'users.statement.passiveBalance' } as const;

/** Where a cashout stands, in words a buyer reads (REQUESTED and NOTIFIED both wait for an admin). */
export function cashoutState(cashout: MyCashoutJson): { text: string; variant: 'secondary' | 'success' | 'destructive' } {
  if (cashout.status === 'PAID') return { text: t('users.cashoutState.paid'), variant: 'success' };
  if (cashout.status === 'REJECTED') return { text: t('users.cashoutState.rejected'), variant: 'destructive' };
  if (cashout.status === 'CANCELLED') return { text: t('users.cashoutState.cancelled'), variant: 'destructive' };
  if (cashout.status === 'HELD') return { text: t('users.cashoutState.held', { day: formatDay(cashout.holdUntil) }), variant: 'secondary' };
  return { text: t('users.cashoutState.waiting'), variant: 'secondary' };
}

/** Holds the place of the payout's hash in 'paid by {hash}'. */
const PAID_BY_MARK = '\u0001';

/** What a line of the statement is, in a buyer's words. */
export function entryTitle(entry: StatementEntryJson): string {
  switch (entry.kind) {
    case 'DAILY_CREDIT':
      return t('users.entry.dailyCredit');
    case 'REFERRAL_REWARD':
      return entry.from ? t('users.entry.referralFrom', { from: entry.from }) : t('users.entry.referral');
    case 'REFERRAL_REVERSAL':
      return entry.from ? t('users.entry.reversalFrom', { from: entry.from }) : t('users.entry.reversal');
    case 'EXCHANGE':
      return t(entry.account === 'PASSIVE' ? 'users.entry.exchangeIn' : 'users.entry.exchangeOut');
    case 'CASHOUT':
      if (!entry.cashoutReturned) return t('users.entry.cashout');
      return t(entry.cashout?.status === 'CANCELLED' ? 'users.entry.cashoutCancelled' : 'users.entry.cashoutRejected');
    case 'ADMIN_ADJUSTMENT':
      return t('users.entry.adjustment');
    case 'OVERPAYMENT_CREDIT':
      return t('users.entry.overpayment');
  }
}

/** 'paid by 0x…' with the payout's hash in full in its title, where the translation puts it. */
function PaidBy({ hash }: { hash: string }) {
  const [before = '', after = ''] = t('users.statement.paidBy', { hash: PAID_BY_MARK }).split(PAID_BY_MARK);
  return (
    <span className="text-xs">
      {before}
      <code className="break-all font-mono" title={hash}>
        {shortHex(hash, 10, 8)}
      </code>
      {after}
    </span>
  );
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
            <PaidBy hash={cashout.payoutTxHash} />
          ) : (
            <span className="text-xs">{t('users.statement.to', { wallet: shortHex(cashout.wallet, 6, 4) })}</span>
          )}
        </span>
      ) : null}
    </>
  );
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
          <h2 className="text-lg">{t('users.statement.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {list.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label={t('users.statement.loading')} />
          </div>
        ) : list.isError ? (
          <ErrorAlert error={list.error} />
        ) : entries.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <ReceiptText aria-hidden="true" className="size-4" />
            {t('users.statement.empty')}
          </p>
        ) : (
          <ul aria-label={t('users.statement.title')} className="divide-y">
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
                <span className="text-right text-xs text-muted-foreground">{t(ACCOUNT[entry.account])}</span>
              </li>
            ))}
          </ul>
        )}
        <LoadMore list={list} label={t('users.statement.earlier')} />
      </CardContent>
    </Card>
  );
}
