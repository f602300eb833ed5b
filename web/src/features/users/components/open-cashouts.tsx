import { Clock } from 'lucide-react';
import { BALANCE_CURRENCY } from '@shop/core/contract';
import { formatTime, formatDay, formatAmount, shortHex } from '@/lib/format';
import { t } from '@/i18n/i18n';
import { marks, withParts } from '@/i18n/rich-text';
import { useMyOpenCashouts } from '../api/get-statement';

/**
 * Under the active balance: each cashout still waiting to be paid, so a 0.00 balance reads
 * as "on its way"; one to a wallet new to the account says until when it waits.
 */
export function OpenCashouts() {
  const { data: cashouts } = useMyOpenCashouts();
  if (!cashouts?.length) return null;
  return (
    <ul aria-label={t('users.openCashouts.label')} className="grid gap-2 text-sm">
      {cashouts.map((c) => (
        <li key={c._id} className="flex items-start gap-2 rounded-md border bg-muted/40 px-3 py-2">
          <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <span>
            {withParts(t('users.openCashouts.waiting', marks('amount', 'wallet', 'day')), {
              amount: <strong className="tabular-nums">{`${formatAmount(c.amountUsd)} ${BALANCE_CURRENCY}`}</strong>,
              wallet: <code className="font-mono text-xs">{shortHex(c.wallet, 6, 4)}</code>,
              day: <time dateTime={c.createdAt}>{formatDay(c.createdAt)}</time>,
            })}{' '}
            {c.status === 'HELD' && c.holdUntil
              ? withParts(t('users.openCashouts.held', marks('time')), { time: <time dateTime={c.holdUntil}>{formatTime(c.holdUntil)}</time> })
              : t('users.openCashouts.soon')}
          </span>
        </li>
      ))}
    </ul>
  );
}
