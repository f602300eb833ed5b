import { formatAssetAmount } from '@/lib/asset-amount';

/** '0.012346 ETH' for a wei amount (a sweep, its gas), '—' without one. A transfer reads in its own asset: `paymentAmount`. */
export function ethValue(valueWei: string | null): string {
  return valueWei ? formatAssetAmount(valueWei, 'ETH') : '—';
}
