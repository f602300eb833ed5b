import { useState } from 'react';
import { CircleCheck, Ban } from 'lucide-react';
import { toast } from 'sonner';
import type { CashoutJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useMarkCashoutPaid } from '../api/mark-cashout-paid';
import { useRejectCashout } from '../api/reject-cashout';
import { InlineInputForm, TX_HASH_PATTERN } from './inline-input-form';
import { ShortHex } from './short-hex';

/** Open requests can be marked paid (with the payout's hash) or rejected. */
export function CashoutActions({ cashout }: { cashout: CashoutJson }) {
  const [marking, setMarking] = useState(false);
  const markPaid = useMarkCashoutPaid();
  const reject = useRejectCashout();

  if (cashout.status === 'PAID') return <ShortHex value={cashout.payoutTxHash} />;
  if (cashout.status !== 'REQUESTED' && cashout.status !== 'NOTIFIED') return null;

  if (marking) {
    return (
      <InlineInputForm
        label="Payout tx hash"
        submitLabel="Save"
        pattern={TX_HASH_PATTERN}
        patternHint="0x followed by 64 hex characters"
        pending={markPaid.isPending}
        onCancel={() => setMarking(false)}
        onSubmit={(payoutTxHash) =>
          markPaid.mutate(
            { id: cashout._id, payoutTxHash },
            {
              onSuccess: () => {
                setMarking(false);
                toast.success('Cashout marked as paid');
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
      <Button size="sm" onClick={() => setMarking(true)}>
        <CircleCheck aria-hidden="true" />
        Mark Paid
      </Button>
      <Button size="sm" variant="destructive" disabled={reject.isPending} onClick={onReject}>
        <Ban aria-hidden="true" />
        Reject
      </Button>
    </div>
  );
}
