import { useState } from 'react';
import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { PageHeader } from '@/components/page-header';
import { useWebhooks } from '../api/get-webhooks';
import { WebhookDeliveries } from '../components/webhook-deliveries';
import { WebhookEndpointCard } from '../components/webhook-endpoint-card';
import { WebhookForm } from '../components/webhook-form';

function WebhooksHelp() {
  return (
    <div className="flex flex-col gap-2 text-sm text-muted-foreground">
      <p>
        The shop POSTs each event as JSON to every enabled endpoint that subscribes to its type. Requests are signed per the{' '}
        <a href="https://www.standardwebhooks.com/" target="_blank" rel="noreferrer" className="text-foreground underline underline-offset-4">
          Standard Webhooks
        </a>{' '}
        spec, with the headers <code className="font-mono text-foreground">webhook-id</code>,{' '}
        <code className="font-mono text-foreground">webhook-timestamp</code> and{' '}
        <code className="font-mono text-foreground">webhook-signature</code>: verify them with the{' '}
        <code className="font-mono text-foreground">standardwebhooks</code> library and the endpoint&apos;s signing secret.
      </p>
      <p>
        A failed delivery is retried with exponential back-off for about 3 days. Redeliver sends an event again with the same
        webhook-id, so a receiver that already handled it can drop it.
      </p>
    </div>
  );
}

/** /admin/webhooks: endpoints that receive the shop's signed events, and each one's delivery log. */
export function WebhooksPage() {
  const list = useWebhooks();
  const { data: endpoints, isPending, error } = list;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = endpoints?.find((e) => e._id === selectedId) ?? null;

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Webhooks" />
      <WebhooksHelp />
      <WebhookForm onCreated={setSelectedId} />
      <h2 className="text-xl font-semibold tracking-tight">Endpoints</h2>
      <AdminTableState
        isPending={isPending}
        error={error}
        isEmpty={endpoints?.length === 0}
        emptyText="No webhook endpoints yet."
      >
        <div className="flex flex-col divide-y">
          {endpoints?.map((endpoint) => (
            <WebhookEndpointCard
              key={endpoint._id}
              endpoint={endpoint}
              selected={endpoint._id === selectedId}
              onSelect={setSelectedId}
            />
          ))}
        </div>
      </AdminTableState>
      <LoadMore list={list} label="More endpoints" />
      {selected ? <WebhookDeliveries endpoint={selected} /> : null}
    </section>
  );
}
