import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksQueryKey } from '@/lib/query-keys';

/** 202: the event goes again with the same webhook-id (receivers that saw it drop it) and a fresh set of retries. */
export const redeliverWebhook = (deliveryId: string): Promise<{ message: string }> =>
  api.post<{ message: string }>(`/api/admin/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);

export function useRedeliverWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliverWebhook,
    // The delivery is PENDING again: its log and the endpoint's counts changed.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}
