import { useId } from 'react';
import { APPROVAL_REASON_MAX } from '@shop/core/contract';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { t } from '@/i18n/i18n';

/**
 * Why the admin makes an edit that may wait for a second admin (a large balance increase,
 * admin rights, a package that pays more): sent as `approvalReason`, kept on the approval
 * when the server holds the edit, and read by the approver on Admin > Approvals.
 */
export function SecondAdminReason({ value, onValueChange }: { value: string; onValueChange: (value: string) => void }) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{t('secondAdmin.reason')}</Label>
      <Textarea
        id={id}
        name="approvalReason"
        rows={2}
        maxLength={APPROVAL_REASON_MAX}
        aria-describedby={hintId}
        placeholder={t('secondAdmin.placeholder')}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      />
      <p id={hintId} className="text-sm text-muted-foreground">
        {t('secondAdmin.hint')}

      </p>
    </div>
  );
}
