import { Link } from '@/components/link';
import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { AUDIT_ACTIONS, type AuditEntryJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { StatusFilter } from '@/components/list-filter-fields';
import { SearchBox, useListParam } from '@/components/list-filters';
import { t } from '@/i18n/i18n';
import { formatTime } from '@/lib/format';
import { useAuditLog } from '../api/get-audit';

/** The admin page of what an entry acted on, where there is one to open. */
function subjectHref(subject: NonNullable<AuditEntryJson['subject']>): string | null {
  const id = encodeURIComponent(subject.id);
  switch (subject.type) {
    case 'user':
      return `/admin/user/${id}/edit`;
    case 'order':
      return `/admin/order/${id}`;
    case 'product':
      return `/admin/products/${id}/edit`;
    case 'cashout':
    case 'refund':
      return '/admin/cashouts';
    case 'payment':
      return '/admin/payments';
    case 'webhook':
    case 'webhook-delivery':
      return '/admin/webhooks';
    default:
      return null;
  }
}

const linkClass = 'underline-offset-4 hover:underline';

/** What an entry acted on, by its name (or its type and id), linked to its page; and a link to its other entries. */
function Subject({ subject }: { subject: NonNullable<AuditEntryJson['subject']> }) {
  const label = subject.name ?? `${subject.type} ${subject.id}`;
  const href = subjectHref(subject);
  return (
    <span className="flex flex-col gap-0.5">
      {href ? (
        <Link className={`break-all ${subject.name ? '' : 'font-mono text-xs'} ${linkClass}`} to={href}>
          {label}
        </Link>
      ) : (
        <span className={`break-all ${subject.name ? '' : 'font-mono text-xs'}`}>{label}</span>
      )}
      <Link
        className={`text-xs text-muted-foreground ${linkClass}`}
        to={`/admin/audit?subject=${encodeURIComponent(subject.id)}`}
      >
        {t('audit.entries')}
        <span className="sr-only"> {t('audit.entriesAbout', { label })}</span>
      </Link>
    </span>
  );
}

/** A before/after object as short "key: value" lines (balances, prices, statuses). */
function Change({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-muted-foreground">-</span>;
  if (typeof value !== 'object') return <span>{String(value)}</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="break-all">{typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

const auditColumns = (): ColumnDef<AuditEntryJson>[] => [
  { accessorKey: 'seq', header: '#', meta: { className: 'font-mono text-xs' } },
  { id: 'at', header: t('audit.column.when'), cell: ({ row }) => <time dateTime={row.original.at}>{formatTime(row.original.at)}</time> },
  {
    id: 'actor',
    header: t('audit.column.who'),
    // Each name and subject filters the log by it.
    cell: ({ row }) =>
      row.original.actor?.email ? (
        <Link className={linkClass} to={`/admin/audit?actor=${encodeURIComponent(row.original.actor.email)}`}>
          {row.original.actor.email}
        </Link>
      ) : (
        <span className="text-muted-foreground">{t('audit.anonymous')}</span>
      ),
  },
  { accessorKey: 'action', header: t('audit.column.action'), meta: { className: 'font-mono text-xs' } },
  {
    id: 'subject',
    header: t('audit.column.subject'),
    cell: ({ row }) => (row.original.subject ? <Subject subject={row.original.subject} /> : null),
  },
  { id: 'before', header: t('audit.column.before'), cell: ({ row }) => <Change value={row.original.before} /> },
  { id: 'after', header: t('audit.column.after'), cell: ({ row }) => <Change value={row.original.after} /> },
  {
    id: 'from',
    header: t('audit.column.from'),
    cell: ({ row }) => (
      <span className="text-xs">
        {row.original.ip ?? '-'}
        {row.original.userAgent ? <span className="block max-w-48 truncate text-muted-foreground" title={row.original.userAgent}>{row.original.userAgent}</span> : null}
      </span>
    ),
  },
];

const actionOptions = () => [{ value: '', label: t('audit.everyAction') }, ...AUDIT_ACTIONS.map((a) => ({ value: a, label: a }))];

/** 'Audit log': every admin action and security event, newest first, from the chained log. */
export function AuditLogPage() {
  const [actor] = useListParam('actor');
  const [action] = useListParam('action');
  const [subject] = useListParam('subject');
  const list = useAuditLog({ actor, action, subject });
  const columns = useMemo(() => auditColumns(), []);
  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('audit.title')} />
      <p className="text-sm text-muted-foreground">{t('audit.description')}</p>
      <DataTable
        columns={columns}
        list={list}
        emptyText={actor || action || subject ? t('audit.noMatch') : t('audit.empty')}
        moreLabel={t('audit.more')}
        toolbar={
          <div className="flex flex-wrap items-center gap-3">
            <SearchBox label={t('audit.actor')} placeholder={t('audit.actorPlaceholder')} param="actor" />
            <SearchBox label={t('audit.subject')} placeholder={t('audit.subjectPlaceholder')} param="subject" />
            <StatusFilter label={t('audit.action')} options={actionOptions()} param="action" />
          </div>
        }
      />
    </section>
  );
}
