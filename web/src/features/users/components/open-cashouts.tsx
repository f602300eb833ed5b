import { Clock } from 'lucide-react';
import { BALANCE_CURRENCY } from '@shop/core/contract';
import { formatTime, formatDay, formatMoney, shortHex } from '@/lib/format';
import { useMyOpenCashouts } from '../api/get-statement';

/**
 * Under the active balance: each cashout still waiting to be paid, so a 0.00 balance reads
 * as "on its way"; one to a wallet new to the account says until when it waits.
 */
export function OpenCashouts() {
  const { data: cashouts } = useMyOpenCashouts();
  if (!cashouts?.length) return null;
  return (
    <ul aria-label="Cashouts waiting to be paid" className="grid gap-2 text-sm">
      {cashouts.map((c) => (
        <li key={c._id} className="flex items-start gap-2 rounded-md border bg-muted/40 px-3 py-2">
          <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <span>
            <strong className="tabular-nums">
              {formatMoney(c.amountUsd)} {BALANCE_CURRENCY}
            </strong>{' '}
            waiting to be paid to <code className="font-mono text-xs">{shortHex(c.wallet, 6, 4)}</code>, requested{' '}
            <time dateTime={c.createdAt}>{formatDay(c.createdAt)}</time>.{' '}
            {c.status === 'HELD' && c.holdUntil ? (
              <>
                A wallet new to your account: it waits until <time dateTime={c.holdUntil}>{formatTime(c.holdUntil)}</time>, and
                the e-mail we sent you can cancel it.
              </>
            ) : (
              'Coins are sent within 1-24 hours.'
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
