import { useId } from 'react';
import { RotateCw } from 'lucide-react';
import { toast } from 'sonner';
import type { WebhookDeliveryJson, WebhookEndpointJson } from '@shop/core/contract';
import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { StatusBadge } from '@/components/status-badge';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
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
            <span className="tabular-nums">{formatDateTime(attempt.at)}</span>{' '}
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

/** An endpoint's latest deliveries, newest first; each can be sent again in one click. */
export function WebhookDeliveries({ endpoint }: { endpoint: WebhookEndpointJson }) {
  const headingId = useId();
  const list = useWebhookDeliveries(endpoint._id);
  const { data: deliveries, isPending, error } = list;
  const redeliver = useRedeliverWebhook();

  const onRedeliver = (id: string) =>
    redeliver.mutate(id, {
      onSuccess: (result) => toast.success(result?.message || 'Redelivery queued'),
      onError: (err) => toast.error(getErrorMessage(err)),
    });

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold tracking-tight">
        Delivery log
        <span className="block font-mono text-sm font-normal break-all text-muted-foreground">{endpoint.url}</span>
      </h2>
      <AdminTableState isPending={isPending} error={error} isEmpty={deliveries?.length === 0} emptyText="No events have been sent to this endpoint yet.">
        <Table aria-label="Deliveries">
          <TableHeader>
            <TableRow>
              <TableHead>EVENT</TableHead>
              <TableHead>EVENT ID</TableHead>
              <TableHead>SUBJECT</TableHead>
              <TableHead>STATUS</TableHead>
              <TableHead>ATTEMPTS</TableHead>
              <TableHead>LAST RESPONSE</TableHead>
              <TableHead>CREATED</TableHead>
              <TableHead>DELIVERED</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {deliveries?.map((delivery) => (
              <TableRow key={delivery._id} className="align-top">
                <TableCell className="font-mono text-xs">{delivery.type}</TableCell>
                <TableCell className="font-mono text-xs">{delivery.eventId}</TableCell>
                <TableCell className="max-w-48 font-mono text-xs break-all whitespace-normal">{delivery.subject}</TableCell>
                <TableCell>
                  <StatusBadge status={delivery.status} />
                </TableCell>
                <TableCell>
                  <Attempts delivery={delivery} />
                </TableCell>
                <TableCell className="max-w-64 text-xs break-words whitespace-normal">{responseText(delivery.lastStatus, delivery.lastError) || '—'}</TableCell>
                <TableCell className="text-xs tabular-nums">{formatDateTime(delivery.createdAt)}</TableCell>
                <TableCell className="text-xs tabular-nums">{formatDateTime(delivery.deliveredAt) || '—'}</TableCell>
                <TableCell className="text-right">
                  <Button
                    size="sm"
                    variant="outline"
                    pending={redeliver.isPending && redeliver.variables === delivery._id}
                    icon={<RotateCw aria-hidden="true" />}
                    disabled={redeliver.isPending && redeliver.variables === delivery._id}
                    onClick={() => onRedeliver(delivery._id)}
                  >
                    Redeliver
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More deliveries" />
    </section>
  );
}
