import { useState } from 'react';
import { Link2 } from 'lucide-react';
import { toast } from 'sonner';
import type { AdminPaymentJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useAssignPayment } from '../api/assign-payment';
import { useRefundPayment } from '../api/refund-payment';
import { InlineInputForm } from './inline-input-form';
import { RequestRefundAction } from './request-refund-action';
import { statusText } from '@/components/status-badge';

/**
 * Assign a transfer to an order (by id), or request its refund: to the sender, or to
 * another wallet. The refund is paid out from the Cashouts page. An inflow (ETH with no
 * transaction to show for it) can only be refunded, to a wallet the admin names.
 */
export function PaymentActions({ payment }: { payment: AdminPaymentJson }) {
  const [assigning, setAssigning] = useState(false);
  const assign = useAssignPayment();
  const refund = useRefundPayment();

  if (assigning) {
    return (
      <InlineInputForm
        label="Order ID"
        submitLabel="Assign"
        initialValue={payment.order ?? ''}
        pending={assign.isPending}
        onCancel={() => setAssigning(false)}
        onSubmit={(orderId) =>
          assign.mutate(
            { id: payment._id, orderId },
            {
              onSuccess: ({ orderStatus }) => {
                setAssigning(false);
                toast.success(`Payment assigned. The order is ${statusText(orderStatus).toLowerCase()} now.`);
              },
              onError: (error) => toast.error(getErrorMessage(error)),
            },
          )
        }
      />
    );
  }

  return (
    <RequestRefundAction
      sender={payment.from}
      label="Refund"
      pending={refund.isPending}
      mutate={(target, { onSuccess, onError }) =>
        refund.mutate({ id: payment._id, ...target }, { onSuccess: (result) => onSuccess(result?.message), onError })
      }
    >
      {payment.source === 'INFLOW' ? null : (
        <Button size="sm" icon={<Link2 aria-hidden="true" />} onClick={() => setAssigning(true)}>
          Assign
        </Button>
      )}
    </RequestRefundAction>
  );
}
