import { useState } from 'react';
import { CircleCheck, Ban } from 'lucide-react';
import { toast } from 'sonner';
import type { CashoutJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useMarkCashoutPaid } from '../api/mark-cashout-paid';
import { useRejectCashout } from '../api/reject-cashout';
import { PayoutHashForm, payoutVerifyingToast } from './payout-hash-form';

/**
 * Open requests can be marked paid (with the payout's hash, which the worker verifies)
 * or rejected; neither while a hash is being checked. After a refused check the admin
 * can give another hash.
 */
export function CashoutActions({ cashout }: { cashout: CashoutJson }) {
  const [marking, setMarking] = useState(false);
  const markPaid = useMarkCashoutPaid();
  const reject = useRejectCashout();

  if (cashout.status !== 'REQUESTED' && cashout.status !== 'NOTIFIED') return null;
  if (cashout.check?.status === 'CHECKING') return null;

  if (marking) {
    return (
      <PayoutHashForm
        pending={markPaid.isPending}
        onCancel={() => setMarking(false)}
        onSubmit={(payoutTxHash) =>
          markPaid.mutate(
            { id: cashout._id, payoutTxHash },
            {
              onSuccess: () => {
                setMarking(false);
                toast.success(payoutVerifyingToast('Cashout'));
              },
              onError: (error) => toast.error(getErrorMessage(error)),
            },
          )
        }
      />
    );
  }

  const onReject = () => {
    if (!window.confirm('Are you sure')) return;
    reject.mutate(cashout._id, {
      onSuccess: () => toast.success('Cashout rejected; the amount is back in the active balance'),
      onError: (error) => toast.error(getErrorMessage(error)),
    });
  };

  return (
    <div className="flex justify-end gap-2">
      <Button size="sm" icon={<CircleCheck aria-hidden="true" />} onClick={() => setMarking(true)}>
        Mark Paid
      </Button>
      <Button size="sm" variant="destructive" icon={<Ban aria-hidden="true" />} disabled={reject.isPending} onClick={onReject}>
        Reject
      </Button>
    </div>
  );
}
