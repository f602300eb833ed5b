import { useId, type ReactNode } from 'react';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { t } from '@/i18n/i18n';
import { cn } from '@/lib/utils';

/** Label and value pairs: stacked on a phone, two columns from sm up. */
export function DetailList({ items, className }: { items: [string, ReactNode][]; className?: string }) {
  return (
    <dl className={cn('grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]', className)}>
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="mb-2 min-w-0 break-words sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A hash or address in full (the admin copies it), wrapping anywhere on a narrow screen. */
export function FullHex({ value }: { value: string | null }) {
  if (!value) return <span className="text-muted-foreground">—</span>;
  return <span className="font-mono text-xs break-all">{value}</span>;
}

/** 'Showing the newest 50 of 72.' under a capped list, nothing when all are shown. */
export function CappedNote({ shown, total }: { shown: number; total: number }) {
  if (total <= shown) return null;
  return <p className="text-xs text-muted-foreground">{t('list.capped', { shown, total })}
</p>;
}

/** One section of the order page: a card that is a named region (its heading names it). */
export function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader>
        <h2 id={id} className="leading-none font-semibold">
          {title}
        </h2>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">{children}</CardContent>
    </Card>
  );
}
