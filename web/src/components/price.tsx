import { useQuery } from '@tanstack/react-query';
import { formatDisplayIn, type DisplayCurrency } from '@shop/core/contract';
import { getShopConfigQueryOptions } from '@/api/get-shop-config';
import { activeLocale } from '@/i18n/i18n';
import { chosenCurrency } from '@/i18n/preferences';
import { formatUsd } from '@/lib/format';

/** The display currency the visitor chose, as the shop configures it; undefined: USD only. */
export function useDisplayCurrency(): DisplayCurrency | undefined {
  const code = chosenCurrency();
  const config = useQuery({ ...getShopConfigQueryOptions(), enabled: code !== 'USD' }).data;
  return code === 'USD' ? undefined : config?.displayCurrencies.find((currency) => currency.code === code);
}

/**
 * A USD amount as the shop charges it ('USD $12.50'), and beside it the same amount in the
 * visitor's display currency at the configured rate ('≈ ₼21.25'), which the footer states
 * with its day. Orders and payments stay in USD: the converted figure is shown only.
 */
export function Price({ usd }: { usd: number | string }) {
  const currency = useDisplayCurrency();
  return (
    <>
      {formatUsd(usd)}
      {currency ? <span className="whitespace-nowrap text-muted-foreground"> ≈ {formatDisplayIn(activeLocale(), usd, currency)}</span> : null}
    </>
  );
}
