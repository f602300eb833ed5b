import { useState, type FormEvent } from 'react';
import { X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';

/** Browser check for a transaction hash; the api checks it again. */
export const TX_HASH_PATTERN = '0x[0-9a-fA-F]{64}';

type InlineInputFormProps = {
  /** Names the form and the field for screen readers, and is the placeholder. */
  label: string;
  submitLabel: string;
  initialValue?: string;
  pattern?: string;
  patternHint?: string;
  pending: boolean;
  onSubmit: (value: string) => void;
  onCancel: () => void;
};

/** One field, a submit and a cancel, sized to sit in a table cell. */
export function InlineInputForm({
  label,
  submitLabel,
  initialValue = '',
  pattern,
  patternHint,
  pending,
  onSubmit,
  onCancel,
}: InlineInputFormProps) {
  const [value, setValue] = useState(initialValue);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (trimmed) onSubmit(trimmed);
  };

  return (
    <form aria-label={label} className="flex min-w-72 items-center gap-2" onSubmit={submit}>
      <Input
        aria-label={label}
        placeholder={label}
        value={value}
        required
        autoFocus
        spellCheck={false}
        autoComplete="off"
        className="h-8 font-mono text-xs md:text-xs"
        {...(pattern ? { pattern, title: patternHint ?? label } : {})}
        onChange={(event) => setValue(event.target.value)}
      />
      <Button type="submit" size="sm" disabled={pending}>
        {pending ? <Spinner size="sm" aria-hidden="true" className="text-current" /> : null}
        {submitLabel}
      </Button>
      <Button type="button" size="icon" variant="ghost" className="size-8" aria-label="Cancel" onClick={onCancel}>
        <X aria-hidden="true" />
      </Button>
    </form>
  );
}
