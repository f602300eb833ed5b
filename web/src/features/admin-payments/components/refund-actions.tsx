import type { RefundJson } from '@shop/core/contract';
import { useMarkRefundPaid } from '../api/mark-refund-paid';
import { MarkPayoutPaid } from './mark-payout-paid';
import { PayoutApproval, waitsForApproval } from './payout-approval';
import { WithdrawPayoutHash } from './withdraw-payout-hash';

/** A requested refund is marked paid with the payout's hash (not while one is being checked; a large one once approved). */
export function RefundActions({ refund }: { refund: RefundJson }) {
  const markPaid = useMarkRefundPaid();

  if (refund.status !== 'REQUESTED') return null;
  if (refund.check?.status === 'CHECKING' || refund.heldBy) {
    return <WithdrawPayoutHash target={{ kind: 'refunds', id: refund._id }} check={refund.check} heldBy={refund.heldBy} />;
  }

  if (waitsForApproval(refund.approval)) return <PayoutApproval kind="refund" id={refund._id} approval={refund.approval} />;
  return <MarkPayoutPaid what="Refund" id={refund._id} markPaid={markPaid} />;
}
