import { useId, type ComponentProps, type ReactNode } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useValueBeforeApp } from '@/lib/value-before-app';
import { cn } from '@/lib/utils';

export type FormFieldProps = Omit<ComponentProps<typeof Input>, 'id' | 'onChange'> & {
  label: ReactNode;
  /** Called with the field's text. */
  onValueChange?: (value: string) => void;
  hint?: ReactNode;
};

/** A labelled text input, the building block of every form in the app. */
export function FormField({ label, hint, onValueChange, className, ...inputProps }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const ref = useValueBeforeApp(onValueChange, inputProps.value);
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input ref={ref} id={id} aria-describedby={hint ? hintId : undefined} onChange={(event) => onValueChange?.(event.target.value)} {...inputProps} />
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
