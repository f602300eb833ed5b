import { Check, X } from 'lucide-react';
import { t } from '@/i18n/i18n';

/** The tick or cross of the admin tables, with a text for screen readers. */
export function YesNoIcon({ value, yes, no }: { value: boolean; yes?: string; no?: string }) {
  return value ? (
    <Check role="img" aria-label={yes ?? t('yesNo.yes')} className="size-4 text-success" />
  ) : (
    <X role="img" aria-label={no ?? t('yesNo.no')} className="size-4 text-destructive" />

  );
}
