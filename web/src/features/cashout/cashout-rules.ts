import { toCents } from '@shop/core/contract';
import { t } from '@/i18n/i18n';

/** SPEC.md section 9: the minimum cashout is 20, and the balance must be strictly above it. */
export const CASHOUT_MINIMUM = 20;

/** SPEC.md's text (in English exactly) for a balance not above the minimum. */
export const notEnoughMoney = () => t('cashout.notEnoughMoney');

export function canCashout(activeBalance: number | string): boolean {
  try {
    return toCents(activeBalance) > toCents(CASHOUT_MINIMUM);
  } catch {
    return false;
  }
}
