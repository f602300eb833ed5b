import { useState } from 'react';
import { CircleCheck } from 'lucide-react';
import { toast } from 'sonner';
import type { RefundJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useMarkRefundPaid } from '../api/mark-refund-paid';
import { PayoutHashForm, payoutVerifyingToast } from './payout-hash-form';

/** A requested refund is marked paid with the payout's hash (not while one is being checked). */
export function RefundActions({ refund }: { refund: RefundJson }) {
  const [marking, setMarking] = useState(false);
  const markPaid = useMarkRefundPaid();

  if (refund.status !== 'REQUESTED' || refund.check?.status === 'CHECKING') return null;

  if (marking) {
    return (
      <PayoutHashForm
        pending={markPaid.isPending}
        onCancel={() => setMarking(false)}
        onSubmit={(payoutTxHash) =>
          markPaid.mutate(
            { id: refund._id, payoutTxHash },
            {
              onSuccess: () => {
                setMarking(false);
                toast.success(payoutVerifyingToast('Refund'));
              },
              onError: (error) => toast.error(getErrorMessage(error)),
            },
          )
        }
      />
    );
  }

  return (
    <div className="flex justify-end">
      <Button size="sm" icon={<CircleCheck aria-hidden="true" />} onClick={() => setMarking(true)}>
        Mark Paid
      </Button>
    </div>
  );
}
