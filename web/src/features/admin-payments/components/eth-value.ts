import { formatEth } from '@shop/core/contract';

/** '0.012346 ETH' for a wei amount, '—' without one. */
export function ethValue(valueWei: string | null): string {
  if (!valueWei) return '—';
  try {
    return `${formatEth(valueWei)} ETH`;
  } catch {
    return valueWei;
  }
}
