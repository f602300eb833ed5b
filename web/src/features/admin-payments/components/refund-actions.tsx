import type { RefundJson } from '@shop/core/contract';
import { useMarkRefundPaid } from '../api/mark-refund-paid';
import { MarkPayoutPaid } from './mark-payout-paid';

/** A requested refund is marked paid with the payout's hash (not while one is being checked). */
export function RefundActions({ refund }: { refund: RefundJson }) {
  const markPaid = useMarkRefundPaid();

  if (refund.status !== 'REQUESTED' || refund.check?.status === 'CHECKING') return null;

  return <MarkPayoutPaid what="Refund" id={refund._id} markPaid={markPaid} />;
}
