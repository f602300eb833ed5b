import type { WebhookEndpointJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { webhookListQueryKey } from '@/lib/query-keys';

/** Admin: the webhook endpoints, oldest first, a page at a time, with their delivery counts. */
export function useWebhooks() {
  return usePagedQuery<WebhookEndpointJson>(webhookListQueryKey, '/api/admin/webhooks');
}
