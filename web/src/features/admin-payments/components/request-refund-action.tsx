import { useState, type ReactNode } from 'react';
import { Undo2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { t } from '@/i18n/i18n';
import type { RefundTarget } from '../api/refund-payment';
import { RefundWalletForm } from './refund-wallet-form';

type RequestRefundActionProps = {
  /** The address that sent the ETH (the refund goes there unless a wallet is named), or null. */
  sender: string | null;
  /** The button that opens the form. */
  label: string;
  pending: boolean;
  /**
   * Requests the refund: `target` has `wallet` when the admin named one (none: the
   * sender's), and `approvalReason` when they gave one. `onSuccess` may be told the
   * refund waits for a second admin's approval.
   */
  mutate: (
    target: RefundTarget,
    handlers: { onSuccess: (awaitsApproval?: boolean) => void; onError: (error: Error) => void },
  ) => void;
  /** Other actions, shown before the button (and hidden while the form is open). */
  children?: ReactNode;
};

/** Requests a refund, to the sender or another wallet; it is paid out from the Cashouts page. */
export function RequestRefundAction({ sender, label, pending, mutate, children }: RequestRefundActionProps) {
  const [open, setOpen] = useState(false);

  if (open) {
    return (
      <RefundWalletForm
        sender={sender}
        pending={pending}
        onCancel={() => setOpen(false)}
        onSubmit={(target) =>
          mutate(target, {
            onSuccess: (awaitsApproval) => {
              setOpen(false);
              const requested = awaitsApproval ? t('adminPayments.refundAction.requestedForApproval') : t('adminPayments.refundAction.requested');
              toast.success(t('adminPayments.refundAction.payOut', { message: requested }));
            },
            onError: (error) => toast.error(getErrorMessage(error)),
          })
        }
      />
    );
  }

  return (
    <div className="flex justify-end gap-2">
      {children}
      <Button size="sm" variant="outline" icon={<Undo2 aria-hidden="true" />} onClick={() => setOpen(true)}>
        {label}
      </Button>
    </div>
  );
}
