import { BALANCE_CURRENCY } from '@shop/core/contract';
import { formatAmount } from '@/lib/format';
import { cn } from '@/lib/utils';

/** A balance as the profile and the cashout page show it: the amount, then its unit. */
export function BalanceAmount({ value, className }: { value: number; className?: string }) {
  return (
    <span className={cn('text-2xl font-semibold tabular-nums', value < 0 && 'text-destructive', className)}>
      <span>{formatAmount(value ?? 0)}</span> <span className="text-base font-normal text-muted-foreground">{BALANCE_CURRENCY}</span>
    </span>
  );
}
