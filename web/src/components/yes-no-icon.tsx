import { Check, X } from 'lucide-react';

/** The tick or cross of the admin tables, with a text for screen readers. */
export function YesNoIcon({ value, yes = 'Yes', no = 'No' }: { value: boolean; yes?: string; no?: string }) {
  return value ? (
    <Check role="img" aria-label={yes} className="size-4 text-success" />
  ) : (
    <X role="img" aria-label={no} className="size-4 text-destructive" />
  );
}
