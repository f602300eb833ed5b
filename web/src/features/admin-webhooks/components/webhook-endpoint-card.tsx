import { ListTree, Power, PowerOff, Trash2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { WebhookEndpointJson } from '@shop/core/contract';
import { ConfirmAction } from '@/components/confirm-action';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { t } from '@/i18n/i18n';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useUpdateWebhook } from '../api/update-webhook';
import { marks, withParts } from '@/i18n/rich-text';
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
        onSuccess: (updated) => toast.success(t(updated.enabled ? 'webhooks.endpoint.enabled' : 'webhooks.endpoint.disabled')),
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );

  const onDelete = () =>
    remove.mutate(endpoint._id, {
      onSuccess: () => {
        if (selected) onSelect(null);
        toast.success(t('webhooks.endpoint.deleted'));
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
        <Badge variant={endpoint.enabled ? 'success' : 'secondary'}>{t(endpoint.enabled ? 'webhooks.endpoint.badgeEnabled' : 'webhooks.endpoint.badgeDisabled')}</Badge>
      </div>
      <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">{t('webhooks.endpoint.events')}</dt>
        <dd className="flex flex-wrap gap-1">
          {endpoint.events.map((type) => (
            <Badge key={type} variant="outline" className="font-mono">
              {type}
            </Badge>
          ))}
        </dd>
        <dt className="text-muted-foreground">{t('webhooks.endpoint.secret')}</dt>
        <dd>
          <WebhookSecret endpointId={endpoint._id} secret={endpoint.secret} />
        </dd>
        <dt className="text-muted-foreground">{t('webhooks.endpoint.deliveries')}</dt>
        <dd className="tabular-nums">
          {withParts(t('webhooks.endpoint.counts', { pending: counts.pending, delivered: counts.delivered, ...marks('failed') }), {
            failed: <span className={counts.failed > 0 ? 'text-destructive' : undefined}>{t('webhooks.endpoint.failed', { count: counts.failed })}</span>,
          })}
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
          {t('webhooks.endpoint.log')}
        </Button>
        <Button
          size="sm"
          variant="outline"
          pending={update.isPending}
          icon={endpoint.enabled ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
          disabled={update.isPending}
          onClick={onToggle}
        >
          {t(endpoint.enabled ? 'webhooks.endpoint.disable' : 'webhooks.endpoint.enable')}
        </Button>
        <ConfirmAction
          title={t('webhooks.endpoint.confirmTitle', { url: endpoint.url })}
          description={t('webhooks.endpoint.confirmDescription')}
          confirmLabel={t('webhooks.endpoint.delete')}
          onConfirm={onDelete}
        >
          <Button size="sm" variant="destructive" pending={remove.isPending} icon={<Trash2 aria-hidden="true" />} disabled={remove.isPending}>
            {t('webhooks.endpoint.delete')}
          </Button>
        </ConfirmAction>
      </div>
    </article>
  );
}
