import { useState } from 'react';
import { Link2, Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import type { AdminPaymentJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useAssignPayment } from '../api/assign-payment';
import { useRefundPayment } from '../api/refund-payment';
import { InlineInputForm, TX_HASH_PATTERN } from './inline-input-form';
import { statusText } from './status-badge';

type Mode = 'assign' | 'refund' | null;

/** Assign a transfer to an order (by id) or record its refund (by the refund's hash). */
export function PaymentActions({ payment }: { payment: AdminPaymentJson }) {
  const [mode, setMode] = useState<Mode>(null);
  const assign = useAssignPayment();
  const refund = useRefundPayment();
  const close = () => setMode(null);

  if (mode === 'assign') {
    return (
      <InlineInputForm
        label="Order ID"
        submitLabel="Assign"
        initialValue={payment.order ?? ''}
        pending={assign.isPending}
        onCancel={close}
        onSubmit={(orderId) =>
          assign.mutate(
            { id: payment._id, orderId },
            {
              onSuccess: ({ orderStatus }) => {
                close();
                toast.success(`Payment assigned. Order status: ${statusText(orderStatus)}`);
              },
              onError: (error) => toast.error(getErrorMessage(error)),
            },
          )
        }
      />
    );
  }

  if (mode === 'refund') {
    return (
      <InlineInputForm
        label="Refund tx hash"
        submitLabel="Save"
        pattern={TX_HASH_PATTERN}
        patternHint="0x followed by 64 hex characters"
        pending={refund.isPending}
        onCancel={close}
        onSubmit={(refundTxHash) =>
          refund.mutate(
            { id: payment._id, refundTxHash },
            {
              onSuccess: (result) => {
                close();
                toast.success(result?.message || 'Marked as refunded');
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
      <Button size="sm" onClick={() => setMode('assign')}>
        <Link2 aria-hidden="true" />
        Assign
      </Button>
      <Button size="sm" variant="outline" onClick={() => setMode('refund')}>
        <Undo2 aria-hidden="true" />
        Refund
      </Button>
    </div>
  );
}
