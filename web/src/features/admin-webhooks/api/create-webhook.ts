import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpointJson, WebhookEventType } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { webhookListQueryKey } from '@/lib/query-keys';

export type CreateWebhookInput = { url: string; description?: string; events?: WebhookEventType[] };

/** 201 with the endpoint and its new signing secret; events default to every type on the server. */
export const createWebhook = (input: CreateWebhookInput): Promise<WebhookEndpointJson> =>
  api.post<WebhookEndpointJson>('/api/admin/webhooks', input);

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookListQueryKey }),
  });
}
