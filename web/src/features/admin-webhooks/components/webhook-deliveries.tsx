import { useId } from 'react';
import { RotateCw } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { ColumnDef } from '@tanstack/react-table';
import type { WebhookDeliveryJson, WebhookEndpointJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn } from '@/components/data-table-columns';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/components/status-badge';
import { getErrorMessage } from '@/lib/api-client';
import { formatTime } from '@/lib/format';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useRedeliverWebhook } from '../api/redeliver-webhook';

/** A receiver's answer to an attempt: 'HTTP 500: error', either part alone, or '' when there is neither. */
function responseText(statusCode: number | null, error: string | null): string {
  return [statusCode === null ? null : `HTTP ${statusCode}`, error].filter(Boolean).join(': ');
}

function Attempts({ delivery }: { delivery: WebhookDeliveryJson }) {
  const label = `${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}`;
  if (delivery.log.length === 0) return <span className="tabular-nums">{label}</span>;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer tabular-nums">{label}</summary>
      <ol aria-label="Attempts, newest first" className="mt-1 flex flex-col gap-1">
        {delivery.log.map((attempt, index) => (
          <li key={`${attempt.at}-${index}`} className="whitespace-normal">
            <span className="tabular-nums">{formatTime(attempt.at)}</span>{' '}
            <span className={attempt.error || (attempt.statusCode ?? 0) >= 300 ? 'text-destructive' : 'text-success'}>
              {responseText(attempt.statusCode, attempt.error) || 'No answer'}
            </span>{' '}
            <span className="text-muted-foreground">({attempt.durationMs} ms)</span>
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
      onSuccess: (result) => toast.success(result?.message || 'Redelivery queued'),
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
      Redeliver
    </Button>
  );
}

const DELIVERY_COLUMNS: ColumnDef<WebhookDeliveryJson>[] = [
  { accessorKey: 'type', header: 'EVENT', meta: { className: 'font-mono text-xs' } },
  { accessorKey: 'eventId', header: 'EVENT ID', meta: { className: 'font-mono text-xs' } },
  { accessorKey: 'subject', header: 'SUBJECT', meta: { className: 'max-w-48 font-mono text-xs break-all whitespace-normal' } },
  { id: 'status', header: 'STATUS', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  { id: 'attempts', header: 'ATTEMPTS', cell: ({ row }) => <Attempts delivery={row.original} /> },
  {
    id: 'lastResponse',
    header: 'LAST RESPONSE',
    accessorFn: (delivery) => responseText(delivery.lastStatus, delivery.lastError) || '—',
    meta: { className: 'max-w-64 text-xs break-words whitespace-normal' },
  },
  { id: 'createdAt', header: 'CREATED', accessorFn: (delivery) => formatTime(delivery.createdAt), meta: { className: 'text-xs tabular-nums' } },
  {
    id: 'deliveredAt',
    header: 'DELIVERED',
    accessorFn: (delivery) => formatTime(delivery.deliveredAt) || '—',
    meta: { className: 'text-xs tabular-nums' },
  },
  actionsColumn((delivery) => <RedeliverButton delivery={delivery} />),
];

/** An endpoint's latest deliveries, newest first; each can be sent again in one click. */
export function WebhookDeliveries({ endpoint }: { endpoint: WebhookEndpointJson }) {
  const headingId = useId();
  const list = useWebhookDeliveries(endpoint._id);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold tracking-tight">
        Delivery log
        <span className="block font-mono text-sm font-normal break-all text-muted-foreground">{endpoint.url}</span>
      </h2>
      <DataTable
        columns={DELIVERY_COLUMNS}
        list={list}
        label="Deliveries"
        emptyText="No events have been sent to this endpoint yet."
        moreLabel="More deliveries"
        // A row grows when its attempts are opened; the other cells stay at its top.
        rowClassName="align-top"
      />
    </section>
  );
}
