import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookEndpointJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';

export const getWebhooks = ({ signal }: { signal?: AbortSignal } = {}): Promise<WebhookEndpointJson[]> =>
  api.get<WebhookEndpointJson[]>('/api/admin/webhooks', signal ? { signal } : {});

export const webhooksQueryKey = ['admin', 'webhooks'] as const;
export const webhookListQueryKey = [...webhooksQueryKey, 'list'] as const;

/** Admin: the webhook endpoints, oldest first, with their delivery counts. */
export const getWebhooksQueryOptions = () =>
  queryOptions({
    queryKey: webhookListQueryKey,
    queryFn: ({ signal }) => getWebhooks({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useWebhooks() {
  return useQuery(getWebhooksQueryOptions());
}
