import { useState } from 'react';
import { Link2 } from 'lucide-react';
import type { AdminPaymentJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';
import { useRefundPayment } from '../api/refund-payment';
import { AssignDialog } from './assign-dialog';
import { RequestRefundAction } from './request-refund-action';

/**
 * Assign a transfer to an order (by its reference or id, or from the buyer's open orders
 * the server offers), or request its refund: to the sender, or to another wallet. The
 * refund is paid out from the Cashouts page. An inflow (ETH with no transaction to show
 * for it) can only be refunded, to a wallet the admin names.
 */
export function PaymentActions({ payment }: { payment: AdminPaymentJson }) {
  const [assigning, setAssigning] = useState(false);
  const refund = useRefundPayment();

  return (
    <RequestRefundAction
      sender={payment.from}
      label={t('adminPayments.paymentActions.refund')}
      pending={refund.isPending}
      mutate={(target, { onSuccess, onError }) =>
        refund.mutate({ id: payment._id, ...target }, { onSuccess: (result) => onSuccess(result?.awaitsApproval), onError })
      }
    >
      {payment.source === 'INFLOW' ? null : (
        <>
          <Button size="sm" icon={<Link2 aria-hidden="true" />} onClick={() => setAssigning(true)}>
            {t('adminPayments.paymentActions.assign')}
          </Button>
          {assigning ? <AssignDialog payment={payment} open={assigning} onOpenChange={setAssigning} /> : null}
        </>
      )}
    </RequestRefundAction>
  );
}
