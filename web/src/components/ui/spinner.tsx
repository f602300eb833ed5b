import type { ComponentProps } from 'react';
import { LoaderCircle } from 'lucide-react';
import { t } from '@/i18n/i18n';
import { cn } from '@/lib/utils';

const sizes = { sm: 'size-4', md: 'size-8', lg: 'size-12' } as const;

export type SpinnerProps = ComponentProps<'div'> & {
  size?: keyof typeof sizes;
  /** What is loading, read by screen readers. */
  label?: string;
};

export function Spinner({ className, size = 'md', label, ...props }: SpinnerProps) {
  return (
    <div
      data-slot="spinner"
      role="status"
      aria-label={label ?? t('spinner.loading')}

      className={cn('inline-flex items-center justify-center text-muted-foreground', className)}
      {...props}
    >
      <LoaderCircle aria-hidden="true" className={cn('animate-spin', sizes[size])} />
    </div>
  );
}

/** A spinner centred in the page area, for whole-page loads. */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="flex min-h-48 w-full items-center justify-center py-10">
      <Spinner size="lg" {...(label ? { label } : {})} />
    </div>
  );
}
