import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDeliveryJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { webhooksQueryKey } from './get-webhooks';

export const getWebhookDeliveries = (endpointId: string, { signal }: { signal?: AbortSignal } = {}): Promise<WebhookDeliveryJson[]> =>
  api.get<WebhookDeliveryJson[]>(`/api/admin/webhooks/${encodeURIComponent(endpointId)}/deliveries`, signal ? { signal } : {});

export const webhookDeliveriesQueryKey = (endpointId: string) => [...webhooksQueryKey, 'deliveries', endpointId] as const;

/** How often the log is asked for again while one of its deliveries is still being sent. */
export const DELIVERIES_POLL_INTERVAL = 5000;

/** Admin: an endpoint's latest deliveries, newest first, each with its latest attempts. */
export const getWebhookDeliveriesQueryOptions = (endpointId: string) =>
  queryOptions({
    queryKey: webhookDeliveriesQueryKey(endpointId),
    queryFn: ({ signal }) => getWebhookDeliveries(endpointId, { signal }),
    staleTime: SHORT_STALE_TIME,
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'PENDING') ? DELIVERIES_POLL_INTERVAL : false),
  });

export function useWebhookDeliveries(endpointId: string) {
  return useQuery(getWebhookDeliveriesQueryOptions(endpointId));
}
