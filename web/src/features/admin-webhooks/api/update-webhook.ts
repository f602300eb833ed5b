import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpointJson, WebhookEventType } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { webhookListQueryKey } from '@/lib/query-keys';

export type UpdateWebhookInput = {
  id: string;
  enabled?: boolean;
  events?: WebhookEventType[];
  url?: string;
  description?: string;
};

export const updateWebhook = ({ id, ...changes }: UpdateWebhookInput): Promise<WebhookEndpointJson> =>
  api.patch<WebhookEndpointJson>(`/api/admin/webhooks/${encodeURIComponent(id)}`, changes);

/** Admin: enables or disables an endpoint, or changes its URL, description or events. */
export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookListQueryKey }),
  });
}
