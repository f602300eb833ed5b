import { useState } from 'react';
import { Link2, Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import type { AdminPaymentJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useAssignPayment } from '../api/assign-payment';
import { useRefundPayment } from '../api/refund-payment';
import { InlineInputForm } from './inline-input-form';
import { RefundWalletForm } from './refund-wallet-form';
import { statusText } from './status-badge';

type Mode = 'assign' | 'refund' | null;

/**
 * Assign a transfer to an order (by id), or request its refund: to the sender, or to
 * another wallet. The refund is paid out from the Cashouts page. An inflow (ETH with no
 * transaction to show for it) can only be refunded, to a wallet the admin names.
 */
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
      <RefundWalletForm
        sender={payment.from}
        pending={refund.isPending}
        onCancel={close}
        onSubmit={(wallet) =>
          refund.mutate(
            { id: payment._id, ...(wallet ? { wallet } : {}) },
            {
              onSuccess: (result) => {
                close();
                toast.success(`${result?.message || 'Refund requested'}: pay it out from the Cashouts page`);
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
      {payment.source === 'INFLOW' ? null : (
        <Button size="sm" icon={<Link2 aria-hidden="true" />} onClick={() => setMode('assign')}>
          Assign
        </Button>
      )}
      <Button size="sm" variant="outline" icon={<Undo2 aria-hidden="true" />} onClick={() => setMode('refund')}>
        Refund
      </Button>
    </div>
  );
}
