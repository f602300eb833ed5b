import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Clock, UsersRound } from 'lucide-react';
import { toast } from '@/lib/toast';
import { APPROVAL_REASON_MAX, approvalReason, type PayoutApprovalJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { getErrorMessage } from '@/lib/api-client';
import { t } from '@/i18n/i18n';
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
 * In place of 'Mark Paid' on a large payout: 'Ask approval', which asks why (the second
 * admin reads it on the Approvals page before approving), then 'Awaiting approval' until
 * decided.
 */
export function PayoutApproval({ kind, id, approval, children }: PayoutApprovalProps) {
  const ask = useAskApproval();
  const reasonId = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const pending = approval?.current?.status === 'PENDING';
  const onAsk = (event: FormEvent) => {
    event.preventDefault();
    const parsed = approvalReason.safeParse(reason);
    if (!parsed.success) {
      const code = parsed.error.issues[0]?.code;
      setProblem(
        code === 'too_big'
          ? t('adminPayments.approval.reasonTooLong', { max: APPROVAL_REASON_MAX })
          : code === 'invalid_format'
            ? t('adminPayments.approval.reasonPlain')
            : t('adminPayments.approval.reasonRequired'),
      );
      return;
    }
    setProblem(null);
    ask.mutate(
      { kind, id, reason: parsed.data },
      {
        onSuccess: () => {
          setOpen(false);
          setReason('');
          toast.success(t('adminPayments.approval.asked'));
        },
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      {pending ? (
        <span className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <Clock aria-hidden="true" className="size-3.5" />
          {t('adminPayments.approval.awaiting')}
        </span>
      ) : (
        <>
          <span className="text-xs text-muted-foreground">{t(approval?.current?.status === 'REJECTED' ? 'adminPayments.approval.refused' : 'adminPayments.approval.needed')}</span>
          <Dialog open={open} onOpenChange={setOpen}>
            <DialogTrigger asChild>
              <Button size="sm" variant="outline" icon={<UsersRound aria-hidden="true" />}>
                {t('adminPayments.approval.ask')}
              </Button>
            </DialogTrigger>
            <DialogContent>
              <form onSubmit={onAsk} className="grid gap-4" noValidate>
                <DialogHeader>
                  <DialogTitle>{t('adminPayments.approval.title', { kind })}</DialogTitle>
                  <DialogDescription>{t('adminPayments.approval.description')}</DialogDescription>
                </DialogHeader>
                <div className="grid gap-2">
                  <Label htmlFor={reasonId}>{t('adminPayments.approval.reason')}</Label>
                  <Textarea
                    id={reasonId}
                    value={reason}
                    maxLength={APPROVAL_REASON_MAX}
                    required
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={`${reasonId}-hint`}
                    onChange={(e) => setReason(e.target.value)}
                  />
                  <p id={`${reasonId}-hint`} className={problem ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
                    {problem ?? t('adminPayments.approval.hint', { max: APPROVAL_REASON_MAX })}
                  </p>
                </div>
                <div className="flex justify-end gap-2">
                  <Button type="submit" pending={ask.isPending}>
                    {t('adminPayments.approval.ask')}
                  </Button>
                </div>
              </form>
            </DialogContent>
          </Dialog>
        </>
      )}
      {children}
    </div>
  );
}
