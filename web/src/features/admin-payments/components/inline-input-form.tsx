import { useState, type FormEvent } from 'react';
import { X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ETH_ADDRESS } from '@shop/core/contract';
import { Input } from '@/components/ui/input';
import { t } from '@/i18n/i18n';

/** Browser check for a transaction hash; the api checks it again. */
export const TX_HASH_PATTERN = '0x[0-9a-fA-F]{64}';

/** Browser check for an Ethereum address; the api checks it again. */
export const ADDRESS_PATTERN = ETH_ADDRESS.source.slice(1, -1);

type InlineInputFormProps = {
  /** Names the form and the field for screen readers, and is the placeholder unless one is given. */
  label: string;
  submitLabel: string;
  placeholder?: string;
  /** An optional field submits '' when left empty. */
  required?: boolean;
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
  placeholder,
  required = true,
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
    if (trimmed || !required) onSubmit(trimmed);
  };

  return (
    <form aria-label={label} className="flex min-w-72 items-center gap-2" onSubmit={submit}>
      <Input
        aria-label={label}
        placeholder={placeholder ?? label}
        value={value}
        required={required}
        autoFocus
        spellCheck={false}
        autoComplete="off"
        className="h-8 font-mono text-xs md:text-xs"
        {...(pattern ? { pattern, title: patternHint ?? label } : {})}
        onChange={(event) => setValue(event.target.value)}
      />
      <Button type="submit" size="sm" pending={pending} disabled={pending}>
        {submitLabel}
      </Button>
      <Button type="button" size="icon" variant="ghost" className="size-8" aria-label={t('adminPayments.cancel')} onClick={onCancel}>
        <X aria-hidden="true" />
      </Button>
    </form>
  );
}
