import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhookListQueryKey } from '@/lib/query-keys';

export const deleteWebhook = (id: string): Promise<{ message: string }> =>
  api.delete<{ message: string }>(`/api/admin/webhooks/${encodeURIComponent(id)}`);

/** Admin: the endpoint stops receiving events (the server keeps its delivery log). */
export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookListQueryKey }),
  });
}
