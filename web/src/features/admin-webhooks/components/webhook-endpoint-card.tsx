import { ListTree, Power, PowerOff, Trash2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { WebhookEndpointJson } from '@shop/core/contract';
import { ConfirmAction } from '@/components/confirm-action';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useUpdateWebhook } from '../api/update-webhook';
import { WebhookSecret } from './webhook-secret';

type WebhookEndpointCardProps = {
  endpoint: WebhookEndpointJson;
  selected: boolean;
  onSelect: (id: string | null) => void;
};

/** One endpoint: where it sends, what, its secret and delivery counts; enable, disable, delete, view its log. */
export function WebhookEndpointCard({ endpoint, selected, onSelect }: WebhookEndpointCardProps) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const { counts } = endpoint;

  const onToggle = () =>
    update.mutate(
      { id: endpoint._id, enabled: !endpoint.enabled },
      {
        onSuccess: (updated) => toast.success(updated.enabled ? 'Endpoint enabled' : 'Endpoint disabled'),
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );

  const onDelete = () =>
    remove.mutate(endpoint._id, {
      onSuccess: () => {
        if (selected) onSelect(null);
        toast.success('Webhook endpoint deleted');
      },
      onError: (error) => toast.error(getErrorMessage(error)),
    });

  return (
    <article
      aria-label={endpoint.url}
      className={cn('flex flex-col gap-3 border-l-4 border-l-transparent p-4 text-sm', selected && 'border-l-primary')}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-mono break-all">{endpoint.url}</p>
          {endpoint.description ? <p className="text-muted-foreground">{endpoint.description}</p> : null}
        </div>
        <Badge variant={endpoint.enabled ? 'success' : 'secondary'}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</Badge>
      </div>
      <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">Events</dt>
        <dd className="flex flex-wrap gap-1">
          {endpoint.events.map((type) => (
            <Badge key={type} variant="outline" className="font-mono">
              {type}
            </Badge>
          ))}
        </dd>
        <dt className="text-muted-foreground">Signing secret</dt>
        <dd>
          <WebhookSecret endpointId={endpoint._id} secret={endpoint.secret} />
        </dd>
        <dt className="text-muted-foreground">Deliveries</dt>
        <dd className="tabular-nums">
          {counts.pending} pending, {counts.delivered} delivered,{' '}
          <span className={counts.failed > 0 ? 'text-destructive' : undefined}>{counts.failed} failed</span>
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant={selected ? 'default' : 'outline'}
          aria-pressed={selected}
          icon={<ListTree aria-hidden="true" />}
          onClick={() => onSelect(selected ? null : endpoint._id)}
        >
          Delivery log
        </Button>
        <Button
          size="sm"
          variant="outline"
          pending={update.isPending}
          icon={endpoint.enabled ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
          disabled={update.isPending}
          onClick={onToggle}
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <ConfirmAction
          title={`Delete the endpoint ${endpoint.url}?`}
          description="It will receive no more events. Its delivery log is kept."
          confirmLabel="Delete"
          onConfirm={onDelete}
        >
          <Button size="sm" variant="destructive" pending={remove.isPending} icon={<Trash2 aria-hidden="true" />} disabled={remove.isPending}>
            Delete
          </Button>
        </ConfirmAction>
      </div>
    </article>
  );
}
