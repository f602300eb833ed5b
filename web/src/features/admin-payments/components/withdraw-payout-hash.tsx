import { Undo2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { PayoutCheckJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { shortHex } from '@/lib/format';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { useWithdrawPayoutHash, type WithdrawPayoutHashInput } from '../api/withdraw-payout-hash';

type WithdrawPayoutHashProps = {
  target: WithdrawPayoutHashInput;
  check: PayoutCheckJson | null;
  /** The hash of a replaced payout sent through a contract that holds the request, if any. */
  heldBy: string | null;
};

/**
 * 'Withdraw hash' for a payout hash being checked that the node has never shown (a
 * mistyped hash), and 'Withdraw hold' for a replaced payout sent through a contract whose
 * operation may still run: both asked first, since either could still pay the wallet. A
 * hash the node has seen can only be replaced in the sending wallet: no button (the
 * server says so if asked).
 */
export function WithdrawPayoutHash({ target, check, heldBy }: WithdrawPayoutHashProps) {
  const withdraw = useWithdrawPayoutHash();
  const checking = check?.status === 'CHECKING';
  if (checking ? check.seen : !heldBy) return null;
  const question = t(checking ? 'adminPayments.withdraw.hashQuestion' : 'adminPayments.withdraw.holdQuestion');
  const onClick = () => {
    if (!window.confirm(question)) return;
    withdraw.mutate(target, {
      onSuccess: () => toast.success(t(checking ? 'adminPayments.withdraw.hashWithdrawn' : 'adminPayments.withdraw.holdWithdrawn')),
      onError: (error) => toast.error(getErrorMessage(error)),
    });
  };
  return (
    <div className="flex flex-col items-end gap-1">
      {!checking && heldBy ? <p className="max-w-72 text-xs text-destructive">{t('adminPayments.withdraw.heldBy', { hash: shortHex(heldBy) })}</p> : null}
      <Button size="sm" variant="outline" icon={<Undo2 aria-hidden="true" />} pending={withdraw.isPending} onClick={onClick}>
        {t(checking ? 'adminPayments.withdraw.hash' : 'adminPayments.withdraw.hold')}
      </Button>
    </div>
  );
}
