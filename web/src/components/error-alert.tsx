import { CircleAlert } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';

/** SPEC.md section 8: a failed load shows a red alert 'Error: ' plus the server's message. */
export function ErrorAlert({ error, className }: { error: unknown; className?: string }) {
  return (
    <Alert variant="destructive" className={className}>
      <CircleAlert aria-hidden="true" />
      <AlertDescription>{t('error.withMessage', { message: getErrorMessage(error) })}</AlertDescription>

    </Alert>
  );
}
