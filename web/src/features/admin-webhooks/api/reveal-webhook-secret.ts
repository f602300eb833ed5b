import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The endpoint's signing secret, revealed on request (a money action: may ask for a code first). */
export function useRevealWebhookSecret(endpointId: string) {
  return useMutation({ mutationFn: () => api.post<{ secret: string }>(`/api/admin/webhooks/${endpointId}/secret`) });
}
