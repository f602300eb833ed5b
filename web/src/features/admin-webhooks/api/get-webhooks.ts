import type { WebhookEndpointJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';

export const webhooksQueryKey = ['admin', 'webhooks'] as const;
export const webhookListQueryKey = [...webhooksQueryKey, 'list'] as const;

/** Admin: the webhook endpoints, oldest first, a page at a time, with their delivery counts. */
export function useWebhooks() {
  return usePagedQuery<WebhookEndpointJson>(webhookListQueryKey, '/api/admin/webhooks');
}
