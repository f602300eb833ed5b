import { t } from '@/i18n/i18n';

/**
 * Why a balance can be below zero (shown to the user and to the admin): a referral
 * reward is taken back when the payment that earned it leaves the blockchain, even if it
 * was already exchanged or cashed out; later credit repays it first.
 */
export function NegativeBalanceNote({ who = 'you' }: { who?: 'you' | 'the user' }) {
  return (
    <p className="text-sm text-destructive">{t(who === 'you' ? 'users.negativeBalance.you' : 'users.negativeBalance.admin')}</p>
  );
}
