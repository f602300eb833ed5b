import type { ReactNode } from 'react';
import { Clock, UsersRound } from 'lucide-react';
import { toast } from 'sonner';
import type { PayoutApprovalJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useAskApproval } from '../api/ask-approval';

/** A payout that may not be marked paid yet: worth more than one admin may pay alone, and not approved. */
export const waitsForApproval = (approval: PayoutApprovalJson | undefined): boolean =>
  Boolean(approval?.needed && approval.current?.status !== 'APPROVED');

type PayoutApprovalProps = {
  kind: 'cashout' | 'refund';
  id: string;
  approval: PayoutApprovalJson | undefined;
  /** Other actions (a cashout's Reject). */
  children?: ReactNode;
};

/**
 * In place of 'Mark Paid' on a large payout: 'Ask approval' (a second admin approves it
 * on the Approvals page before the ETH is sent), then 'Awaiting approval' until decided.
 */
export function PayoutApproval({ kind, id, approval, children }: PayoutApprovalProps) {
  const ask = useAskApproval();
  const pending = approval?.current?.status === 'PENDING';
  const onAsk = () =>
    ask.mutate(
      { kind, id },
      {
        onSuccess: () => toast.success('Asked. Another admin approves it on the Approvals page.'),
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      {pending ? (
        <span className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <Clock aria-hidden="true" className="size-3.5" />
          Awaiting a second admin's approval
        </span>
      ) : (
        <>
          <span className="text-xs text-muted-foreground">{approval?.current?.status === 'REJECTED' ? 'Approval refused' : 'Needs a second admin'}</span>
          <Button size="sm" variant="outline" icon={<UsersRound aria-hidden="true" />} disabled={ask.isPending} onClick={onAsk}>
            Ask approval
          </Button>
        </>
      )}
      {children}
    </div>
  );
}
