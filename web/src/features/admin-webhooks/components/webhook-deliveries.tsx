import { useId } from 'react';
import { RotateCw } from 'lucide-react';
import { toast } from 'sonner';
import type { WebhookDeliveryJson, WebhookDeliveryStatus, WebhookEndpointJson } from '@shop/core/contract';
import { AdminTableState } from '@/components/admin-table-state';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useRedeliverWebhook } from '../api/redeliver-webhook';

const STATUS: Record<WebhookDeliveryStatus, { label: string; variant: NonNullable<BadgeProps['variant']> }> = {
  PENDING: { label: 'Pending', variant: 'secondary' },
  DELIVERED: { label: 'Delivered', variant: 'success' },
  FAILED: { label: 'Failed', variant: 'destructive' },
};

/** The receiver's answer to the last attempt: its HTTP status, or why there was none. */
function lastResponse(delivery: WebhookDeliveryJson): string {
  const parts = [delivery.lastStatus === null ? null : `HTTP ${delivery.lastStatus}`, delivery.lastError].filter(Boolean);
  return parts.length ? parts.join(': ') : '—';
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
              {[attempt.statusCode === null ? null : `HTTP ${attempt.statusCode}`, attempt.error].filter(Boolean).join(': ') || 'No answer'}
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
  const { data: deliveries, isPending, error } = useWebhookDeliveries(endpoint._id);
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
                  <Badge variant={STATUS[delivery.status].variant}>{STATUS[delivery.status].label}</Badge>
                </TableCell>
                <TableCell>
                  <Attempts delivery={delivery} />
                </TableCell>
                <TableCell className="max-w-64 text-xs break-words whitespace-normal">{lastResponse(delivery)}</TableCell>
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
    </section>
  );
}
