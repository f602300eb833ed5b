import { Clock, TriangleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { BALANCE_CURRENCY } from '@shop/core/contract';
import { formatMoney } from '@/lib/format';
import { CASHOUT_MINIMUM } from '../cashout-rules';

/** SPEC.md /profile/cashout: the mainnet and 1-24 hours warnings, and the minimum. */
export function CashoutNotices() {
  return (
    <div className="grid gap-3">
      <Alert role="note" className="border-amber-500/40 bg-amber-500/10">
        <TriangleAlert aria-hidden="true" className="text-amber-600" />
        <AlertTitle>Ethereum Mainnet only</AlertTitle>
        <AlertDescription>
          The wallet address must be on the ETH mainnet (Ethereum Mainnet). Coins sent to an address on another
          network are lost.
        </AlertDescription>
      </Alert>
      <Alert role="note">
        <Clock aria-hidden="true" />
        <AlertTitle>Payout time</AlertTitle>
        <AlertDescription>Coins are sent to your wallet within 1-24 hours.</AlertDescription>
      </Alert>
      <p className="text-sm text-muted-foreground">
        There is a <strong className="text-foreground">minimum cashout of {CASHOUT_MINIMUM} AZN</strong>. Your balance
        is kept in {BALANCE_CURRENCY}, and the minimum is applied to it as the same number: your active balance must
        be above {formatMoney(CASHOUT_MINIMUM)} {BALANCE_CURRENCY}.
      </p>
    </div>
  );
}
