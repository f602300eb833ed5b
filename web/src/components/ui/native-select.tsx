import type { ComponentProps } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '@/lib/utils';

/** A styled native <select>: keyboard, mobile pickers and forms work as the browser's own. */
export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <div data-slot="native-select-wrapper" className={cn('relative w-fit', className)}>
      <select
        data-slot="native-select"
        className={cn(
          'h-9 w-full min-w-16 appearance-none rounded-md border border-input bg-transparent py-1 pr-8 pl-3 text-sm shadow-xs outline-none transition-[color,box-shadow]',
          'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50',
          'disabled:pointer-events-none disabled:cursor-not-allowed disabled:opacity-50',
        )}
        {...props}
      />
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}

/** Options 1..max, the quantity choices of SPEC.md's count selectors. */
export function QuantityOptions({ max }: { max: number }) {
  const count = Math.max(0, Math.floor(max));
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <option key={index + 1} value={index + 1}>
          {index + 1}
        </option>
      ))}
    </>
  );
}
