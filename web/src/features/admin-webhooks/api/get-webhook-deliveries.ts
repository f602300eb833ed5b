import type { WebhookDeliveryJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { webhookDeliveriesQueryKey } from '@/lib/query-keys';

/** How often the log is asked for again while one of its deliveries is still being sent. */
export const DELIVERIES_POLL_INTERVAL = 5000;

const pollWhilePending = (rows: WebhookDeliveryJson[]) => (rows.some((d) => d.status === 'PENDING') ? DELIVERIES_POLL_INTERVAL : false);

/** Admin: an endpoint's deliveries, newest first, a page at a time, each with its latest attempts. */
export function useWebhookDeliveries(endpointId: string) {
  return usePagedQuery<WebhookDeliveryJson>(webhookDeliveriesQueryKey(endpointId), `/api/admin/webhooks/${encodeURIComponent(endpointId)}/deliveries`, {}, pollWhilePending);
}
