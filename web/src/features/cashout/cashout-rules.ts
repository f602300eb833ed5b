import { toCents } from '@shop/core/contract';

/** SPEC.md section 9: the minimum cashout is 20, and the balance must be strictly above it. */
export const CASHOUT_MINIMUM = 20;

export const NOT_ENOUGH_MONEY = 'Not Enough Money';

export function canCashout(activeBalance: number | string): boolean {
  try {
    return toCents(activeBalance) > toCents(CASHOUT_MINIMUM);
  } catch {
    return false;
  }
}
