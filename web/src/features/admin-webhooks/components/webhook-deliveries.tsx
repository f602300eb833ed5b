import { useId, useMemo } from 'react';
import { RotateCw } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { ColumnDef } from '@tanstack/react-table';
import type { WebhookDeliveryJson, WebhookEndpointJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn } from '@/components/data-table-columns';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/components/status-badge';
import { getErrorMessage } from '@/lib/api-client';
import { t } from '@/i18n/i18n';
import { formatTime } from '@/lib/format';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useRedeliverWebhook } from '../api/redeliver-webhook';

/** A receiver's answer to an attempt: 'HTTP 500: error', either part alone, or '' when there is neither. */
function responseText(statusCode: number | null, error: string | null): string {
  return [statusCode === null ? null : `HTTP ${statusCode}`, error].filter(Boolean).join(': ');
}

function Attempts({ delivery }: { delivery: WebhookDeliveryJson }) {
  const label = t('webhooks.deliveries.attempts', { count: delivery.attempts });
  if (delivery.log.length === 0) return <span className="tabular-nums">{label}</span>;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer tabular-nums">{label}</summary>
      <ol aria-label={t('webhooks.deliveries.log')} className="mt-1 flex flex-col gap-1">
        {delivery.log.map((attempt, index) => (
          <li key={`${attempt.at}-${index}`} className="whitespace-normal">
            <span className="tabular-nums">{formatTime(attempt.at)}</span>{' '}
            <span className={attempt.error || (attempt.statusCode ?? 0) >= 300 ? 'text-destructive' : 'text-success'}>
              {responseText(attempt.statusCode, attempt.error) || t('webhooks.deliveries.noAnswer')}
            </span>{' '}
            <span className="text-muted-foreground">{t('webhooks.deliveries.duration', { ms: String(attempt.durationMs) })}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

function RedeliverButton({ delivery }: { delivery: WebhookDeliveryJson }) {
  const redeliver = useRedeliverWebhook();
  const onRedeliver = () =>
    redeliver.mutate(delivery._id, {
      onSuccess: () => toast.success(t('webhooks.deliveries.queued')),
      onError: (err) => toast.error(getErrorMessage(err)),
    });
  return (
    <Button
      size="sm"
      variant="outline"
      pending={redeliver.isPending}
      icon={<RotateCw aria-hidden="true" />}
      disabled={redeliver.isPending}
      onClick={onRedeliver}
    >
      {t('webhooks.deliveries.redeliver')}
    </Button>
  );
}

const deliveryColumns = (): ColumnDef<WebhookDeliveryJson>[] => [
  { accessorKey: 'type', header: t('webhooks.column.event'), meta: { className: 'font-mono text-xs' } },
  { accessorKey: 'eventId', header: t('webhooks.column.eventId'), meta: { className: 'font-mono text-xs' } },
  { accessorKey: 'subject', header: t('webhooks.column.subject'), meta: { className: 'max-w-48 font-mono text-xs break-all whitespace-normal' } },
  { id: 'status', header: t('webhooks.column.status'), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  { id: 'attempts', header: t('webhooks.column.attempts'), cell: ({ row }) => <Attempts delivery={row.original} /> },
  {
    id: 'lastResponse',
    header: t('webhooks.column.lastResponse'),
    accessorFn: (delivery) => responseText(delivery.lastStatus, delivery.lastError) || '—',
    meta: { className: 'max-w-64 text-xs break-words whitespace-normal' },
  },
  { id: 'createdAt', header: t('webhooks.column.created'), accessorFn: (delivery) => formatTime(delivery.createdAt), meta: { className: 'text-xs tabular-nums' } },
  {
    id: 'deliveredAt',
    header: t('webhooks.column.delivered'),
    accessorFn: (delivery) => formatTime(delivery.deliveredAt) || '—',
    meta: { className: 'text-xs tabular-nums' },
  },
  actionsColumn((delivery) => <RedeliverButton delivery={delivery} />),
];

/** An endpoint's latest deliveries, newest first; each can be sent again in one click. */
export function WebhookDeliveries({ endpoint }: { endpoint: WebhookEndpointJson }) {
  const headingId = useId();
  const list = useWebhookDeliveries(endpoint._id);
  const columns = useMemo(() => deliveryColumns(), []);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold tracking-tight">
        {t('webhooks.deliveries.heading')}
        <span className="block font-mono text-sm font-normal break-all text-muted-foreground">{endpoint.url}</span>
      </h2>
      <DataTable
        columns={columns}
        list={list}
        label={t('webhooks.deliveries.label')}
        emptyText={t('webhooks.deliveries.empty')}
        moreLabel={t('webhooks.deliveries.more')}
        // A row grows when its attempts are opened; the other cells stay at its top.
        rowClassName="align-top"
      />
    </section>
  );
}
