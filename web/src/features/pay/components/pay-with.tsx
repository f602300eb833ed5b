import { useId } from 'react';
import type { AssetCode } from '@shop/core/contract';
import { cn } from '@/lib/utils';
import type { PayOption } from '../payment-request';
import { t } from '@/i18n/i18n';

type PayWithProps = {
  options: PayOption[];
  value: AssetCode;
  onChange: (asset: AssetCode) => void;
};

/**
 * 'Pay with' ETH, USDC or USDT: one radio an asset, an asset not offered now disabled with
 * its reason (read out as the radio's description). Native radios in a labelled
 * radiogroup: the browser gives the arrow keys, the focus and the checked state, and the
 * wallet chunk carries no radio-group library (the app has none yet).
 */
export function PayWith({ options, value, onChange }: PayWithProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const reasonId = (asset: AssetCode) => `${id}-${asset}-reason`;
  const notOffered = options.filter((o) => o.reason !== null);
  return (
    <div role="radiogroup" aria-labelledby={labelId} className="flex flex-col gap-2">
      <span id={labelId} className="text-sm font-medium">
        {t('pay.payWith.label')}
      </span>
      <div className="grid grid-cols-3 gap-2">
        {options.map(({ asset, reason }) => {
          const disabled = reason !== null;
          return (
            <label
              key={asset}
              className={cn(
                'flex min-w-0 items-center justify-center gap-2 rounded-md border px-3 py-2 text-sm font-medium transition-colors',
                'has-[:checked]:border-primary has-[:checked]:bg-primary/10',
                'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
                disabled ? 'cursor-not-allowed text-muted-foreground opacity-60' : 'cursor-pointer hover:bg-muted/60',
              )}
            >
              <input
                type="radio"
                name={id}
                value={asset}
                checked={value === asset}
                disabled={disabled}
                aria-describedby={disabled ? reasonId(asset) : undefined}
                onChange={() => onChange(asset)}
                className="size-4 shrink-0 accent-primary"
              />
              {asset}
            </label>
          );
        })}
      </div>
      {notOffered.length ? (
        <ul className="flex flex-col gap-1 text-xs text-muted-foreground">
          {notOffered.map(({ asset, reason }) => (
            <li key={asset}>
              {/* The asset is named once: by the reason when it names it ('USDT is off its peg…'), else before it. */}
              {reason?.includes(asset) ? null : <span className="font-medium">{t('pay.payWith.asset', { asset })}</span>}
              <span id={reasonId(asset)}>{reason}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
