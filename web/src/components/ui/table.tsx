import { useCallback, useState, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/**
 * A ref for a box that may scroll sideways, and whether it does now: a box that scrolls
 * must be reachable by the keyboard (a tab stop), one that does not is no stop at all.
 */
function useScrolls(): [(box: HTMLDivElement | null) => (() => void) | undefined, boolean] {
  const [scrolls, setScrolls] = useState(false);
  const ref = useCallback((box: HTMLDivElement | null) => {
    if (!box || typeof ResizeObserver === 'undefined') return undefined;
    const check = () => setScrolls(box.scrollWidth > box.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return [ref, scrolls];
}

export function Table({ className, ...props }: ComponentProps<'table'>) {
  const [ref, scrolls] = useScrolls();
  return (
    // Wide admin tables scroll sideways on small screens instead of breaking the layout
    // (a longer language's headers too); then the keyboard can reach and scroll them.
    <div ref={ref} data-slot="table-container" className="relative w-full overflow-x-auto" tabIndex={scrolls ? 0 : undefined}>
      {/* Explicit roles: a table laid out as cards on a phone (DataTable's phoneCards) stays a table to screen readers. */}
      <table data-slot="table" role="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableFooter({ className, ...props }: ComponentProps<'tfoot'>) {
  return (
    <tfoot
      data-slot="table-footer"
      className={cn('border-t bg-muted/50 font-medium [&>tr]:last:border-b-0', className)}
      {...props}
    />
  );
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr
      data-slot="table-row"
      role="row"
      className={cn('border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted', className)}
      {...props}
    />
  );
}

export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      data-slot="table-head"
      role="columnheader"
      className={cn('h-10 whitespace-nowrap px-2 text-left align-middle font-medium text-foreground', className)}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td data-slot="table-cell" role="cell" className={cn('whitespace-nowrap p-2 align-middle', className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return (
    <caption data-slot="table-caption" className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />
  );
}
