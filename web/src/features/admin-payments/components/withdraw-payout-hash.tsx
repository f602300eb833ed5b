import { Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import type { PayoutCheckJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useWithdrawPayoutHash, type WithdrawPayoutHashInput } from '../api/withdraw-payout-hash';

/**
 * 'Withdraw hash' for a payout hash being checked that the node has never shown (a
 * mistyped hash): asked first, since a transaction nobody has seen could still be mined.
 * One the node has seen can only be replaced in the sending wallet, so no button.
 */
export function WithdrawPayoutHash({ target, check }: { target: WithdrawPayoutHashInput; check: PayoutCheckJson | null }) {
  const withdraw = useWithdrawPayoutHash();
  if (check?.status !== 'CHECKING' || check.seen) return null;
  const onClick = () => {
    if (!window.confirm('Withdraw this hash? Only if it is wrong: a payout sent with it must never be paid again.')) return;
    withdraw.mutate(target, {
      onSuccess: () => toast.success('Hash withdrawn: mark the right transaction paid'),
      onError: (error) => toast.error(getErrorMessage(error)),
    });
  };
  return (
    <div className="flex justify-end">
      <Button size="sm" variant="outline" icon={<Undo2 aria-hidden="true" />} pending={withdraw.isPending} onClick={onClick}>
        Withdraw hash
      </Button>
    </div>
  );
}
