import { Ban } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { CashoutJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { useMarkCashoutPaid } from '../api/mark-cashout-paid';
import { useRejectCashout } from '../api/reject-cashout';
import { MarkPayoutPaid } from './mark-payout-paid';
import { PayoutApproval, waitsForApproval } from './payout-approval';
import { WithdrawPayoutHash } from './withdraw-payout-hash';

/**
 * Open requests can be marked paid (with the payout's hash, which the worker verifies)
 * or rejected; neither while a hash is being checked (one the node never showed can be
 * withdrawn). After a refused check the admin can give another hash. A large one is
 * marked paid only once a second admin approved it. One held for its new wallet can only
 * be rejected until its wait is over.
 */
export function CashoutActions({ cashout }: { cashout: CashoutJson }) {
  const markPaid = useMarkCashoutPaid();
  const reject = useRejectCashout();

  if (cashout.status !== 'REQUESTED' && cashout.status !== 'NOTIFIED' && cashout.status !== 'HELD') return null;
  if (cashout.check?.status === 'CHECKING' || cashout.heldBy) {
    return <WithdrawPayoutHash target={{ kind: 'cashouts', id: cashout._id }} check={cashout.check} heldBy={cashout.heldBy} />;
  }

  const onReject = () => {
    if (!window.confirm(t('adminPayments.cashoutActions.confirm'))) return;
    reject.mutate(cashout._id, {
      onSuccess: () => toast.success(t('adminPayments.cashoutActions.rejected')),
      onError: (error) => toast.error(getErrorMessage(error)),
    });
  };

  const rejectButton = (
    <Button size="sm" variant="destructive" icon={<Ban aria-hidden="true" />} disabled={reject.isPending} onClick={onReject}>
      {t('adminPayments.cashoutActions.reject')}
    </Button>
  );
  if (cashout.status === 'HELD') return rejectButton;
  if (waitsForApproval(cashout.approval)) {
    return (
      <PayoutApproval kind="cashout" id={cashout._id} approval={cashout.approval}>
        {rejectButton}
      </PayoutApproval>
    );
  }
  return (
    <MarkPayoutPaid what="Cashout" id={cashout._id} markPaid={markPaid}>
      {rejectButton}
    </MarkPayoutPaid>
  );
}
