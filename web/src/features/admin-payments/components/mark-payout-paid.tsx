import { useState, type ReactNode } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { t } from '@/i18n/i18n';
import { PayoutHashForm, payoutVerifyingToast } from './payout-hash-form';

type MarkPaidMutation = Pick<UseMutationResult<unknown, Error, { id: string; payoutTxHash: string }>, 'mutate' | 'isPending'>;

type MarkPayoutPaidProps = {
  what: 'Cashout' | 'Refund';
  id: string;
  /** The mutation that posts the payout's hash for the worker to verify. */
  markPaid: MarkPaidMutation;
  /** Other actions, shown after 'Mark Paid' (and hidden while the hash is being given). */
  children?: ReactNode;
};

/** 'Mark Paid' for a cashout or a refund: asks for the payout's hash and posts it. */
export function MarkPayoutPaid({ what, id, markPaid, children }: MarkPayoutPaidProps) {
  const [marking, setMarking] = useState(false);

  if (marking) {
    return (
      <PayoutHashForm
        pending={markPaid.isPending}
        onCancel={() => setMarking(false)}
        onSubmit={(payoutTxHash) =>
          markPaid.mutate(
            { id, payoutTxHash },
            {
              onSuccess: () => {
                setMarking(false);
                toast.success(payoutVerifyingToast(what));
              },
              onError: (error) => toast.error(getErrorMessage(error)),
            },
          )
        }
      />
    );
  }

  return (
    <div className="flex justify-end gap-2">
      <Button size="sm" icon={<CircleCheck aria-hidden="true" />} onClick={() => setMarking(true)}>
        {t('adminPayments.markPaid.button')}
      </Button>
      {children}
    </div>
  );
}
