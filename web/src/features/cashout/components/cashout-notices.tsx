import { Clock, TriangleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { BALANCE_CURRENCY } from '@shop/core/contract';
import { formatAmount } from '@/lib/format';
import { marks, withParts } from '@/i18n/rich-text';
import { CASHOUT_MINIMUM } from '../cashout-rules';
import { t } from '@/i18n/i18n';

/** SPEC.md /profile/cashout: the mainnet and 1-24 hours warnings, and the minimum. */
export function CashoutNotices() {
  return (
    <div className="grid gap-3">
      <Alert role="note" className="border-amber-500/40 bg-amber-500/10">
        <TriangleAlert aria-hidden="true" className="text-amber-600" />
        <AlertTitle>{t('cashout.mainnetTitle')}</AlertTitle>
        <AlertDescription>{t('cashout.mainnetText')}</AlertDescription>
      </Alert>
      <Alert role="note">
        <Clock aria-hidden="true" />
        <AlertTitle>{t('cashout.payoutTimeTitle')}</AlertTitle>
        <AlertDescription>{t('cashout.payoutTimeText')}</AlertDescription>
      </Alert>
      <p className="text-sm text-muted-foreground">
        {withParts(t('cashout.minimumRule', { ...marks('minimum'), currency: BALANCE_CURRENCY, amount: formatAmount(CASHOUT_MINIMUM) }), {
          minimum: <strong className="text-foreground">{t('cashout.minimum', { minimum: CASHOUT_MINIMUM })}</strong>,
        })}
      </p>
    </div>
  );
}
