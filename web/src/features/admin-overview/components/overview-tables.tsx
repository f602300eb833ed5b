import type { AdminOverviewJson } from '@shop/core/contract';
import { statusText } from '@/components/status-badge';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { t } from '@/i18n/i18n';
import { formatDay, formatUsd } from '@/lib/format';

/** The chart's figures as a table, newest day first: its text alternative, and what a screen reader reads. */
export function DayTable({ days }: { days: AdminOverviewJson['days'] }) {
  return (
    <Table aria-label={t('overview.days.label')}>
      <TableCaption className="sr-only">{t('overview.days.caption')}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('overview.days.day')}</TableHead>
          <TableHead className="text-right">{t('overview.days.revenue')}</TableHead>
          <TableHead className="text-right">{t('overview.days.paidOrders')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {[...days].reverse().map((d) => (
          <TableRow key={d.day}>
            <TableCell className="font-mono text-xs">{formatDay(d.day)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatUsd(d.revenue)}</TableCell>
            <TableCell className="text-right tabular-nums">{d.paidOrders}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function TopPackages({ packages }: { packages: AdminOverviewJson['topPackages'] }) {
  if (!packages.length) return <p className="text-sm text-muted-foreground">{t('overview.topPackages.empty')}</p>;
  return (
    <Table aria-label={t('overview.topPackages.heading')}>
      <TableHeader>
        <TableRow>
          <TableHead>{t('overview.topPackages.package')}</TableHead>
          <TableHead className="text-right">{t('overview.topPackages.revenue')}</TableHead>
          <TableHead className="text-right">{t('overview.topPackages.qty')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {packages.map((p) => (
          <TableRow key={p.productId}>
            <TableCell className="max-w-48 whitespace-normal break-words">{p.name}</TableCell>
            <TableCell className="text-right tabular-nums">{formatUsd(p.revenue)}</TableCell>
            <TableCell className="text-right tabular-nums">{p.qty}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Orders placed in the range by their state now; states with none are left out. */
export function OrdersByState({ states }: { states: AdminOverviewJson['ordersByStatus'] }) {
  const shown = states.filter((s) => s.count > 0);
  if (!shown.length) return <p className="text-sm text-muted-foreground">{t('overview.byState.empty')}</p>;
  return (
    <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-2 text-sm">
      {shown.map((s) => (
        <div key={s.status} className="contents">
          <dt className="text-muted-foreground">{statusText(s.status)}</dt>
          <dd className="text-right font-medium tabular-nums">{s.count}</dd>
        </div>
      ))}
    </dl>
  );
}
