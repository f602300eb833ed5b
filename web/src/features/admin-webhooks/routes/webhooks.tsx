import { useState } from 'react';
import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { PageHeader } from '@/components/page-header';
import { t } from '@/i18n/i18n';
import { useWebhooks } from '../api/get-webhooks';
import { WebhookDeliveries } from '../components/webhook-deliveries';
import { WebhookEndpointCard } from '../components/webhook-endpoint-card';
import { WebhookForm } from '../components/webhook-form';
import { marks, withParts } from '@/i18n/rich-text';

/** The Standard Webhooks headers and library, named as they are. */
const [HEADER_ID, HEADER_TIMESTAMP, HEADER_SIGNATURE, LIBRARY] = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'standardwebhooks'];
const codeClass = 'font-mono text-foreground';

function WebhooksHelp() {
  return (
    <div className="flex flex-col gap-2 text-sm text-muted-foreground">
      <p>
        {withParts(t('webhooks.help.signing', marks('spec', 'id', 'timestamp', 'signature', 'library')), {
          spec: (
            <a href="https://www.standardwebhooks.com/" target="_blank" rel="noreferrer" className="text-foreground underline underline-offset-4">
              {t('webhooks.help.spec')}
            </a>
          ),
          id: <code className={codeClass}>{HEADER_ID}</code>,
          timestamp: <code className={codeClass}>{HEADER_TIMESTAMP}</code>,
          signature: <code className={codeClass}>{HEADER_SIGNATURE}</code>,
          library: <code className={codeClass}>{LIBRARY}</code>,
        })}
      </p>
      <p>{t('webhooks.help.retries')}</p>
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
      <PageHeader title={t('webhooks.title')} />
      <WebhooksHelp />
      <WebhookForm onCreated={setSelectedId} />
      <h2 className="text-xl font-semibold tracking-tight">{t('webhooks.endpoints')}</h2>
      <AdminTableState
        isPending={isPending}
        error={error}
        isEmpty={endpoints?.length === 0}
        emptyText={t('webhooks.empty')}
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
      <LoadMore list={list} label={t('webhooks.more')} />
      {selected ? <WebhookDeliveries endpoint={selected} /> : null}
    </section>
  );
}
