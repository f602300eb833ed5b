import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { approvalsQueryKey, cashoutsQueryKey, refundsQueryKey, usersQueryKey } from '@/lib/query-keys';

/** The payout, and why the admin asks (required). */
export type AskApprovalInput = { kind: 'cashout' | 'refund'; id: string; reason: string };

export const askApproval = (target: AskApprovalInput): Promise<ApprovalJson> => api.post<ApprovalJson>('/api/admin/approvals', target);

/**
 * Asks a second admin to approve paying a large cashout or refund (before its ETH is sent).
 * The approvals and the payout lists (which show approval states) are read again, as
 * when an approval is decided.
 */
export function useAskApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: askApproval,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: approvalsQueryKey });
      for (const queryKey of [cashoutsQueryKey, refundsQueryKey]) await queryClient.invalidateQueries({ queryKey });
      await queryClient.invalidateQueries({ queryKey: usersQueryKey, refetchType: 'none' });
    },
  });
}
