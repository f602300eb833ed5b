import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { usePagedQuery } from '@/lib/paged-query';
import { usersQueryKey, cashoutsQueryKey, refundsQueryKey, approvalsQueryKey, adminWaitingQueryKey } from '@/lib/query-keys';

/** The payout lists show approval states, and the Admin menu counts what waits: they are refreshed with the approvals. */
const payoutKeys = [cashoutsQueryKey, refundsQueryKey, adminWaitingQueryKey];

/** Admin: large money moves waiting for (or decided by) a second admin, newest first. */
export function useApprovals(filters: { status?: string }) {
  return usePagedQuery<ApprovalJson>(approvalsQueryKey, '/api/admin/approvals', filters);
}

function useApprovalMutation<Input>(mutationFn: (input: Input) => Promise<ApprovalJson>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: approvalsQueryKey });
      for (const queryKey of payoutKeys) await queryClient.invalidateQueries({ queryKey });
      // An approved balance increase changed a balance.
      await queryClient.invalidateQueries({ queryKey: usersQueryKey, refetchType: 'none' });
    },
  });
}

/** What an admin does with a pending request: approve or reject another admin's, withdraw their own. */
export type Decision = 'approve' | 'reject' | 'withdraw';

/** Decides a pending request; approving and rejecting may ask for a second factor first (the step-up dialog). */
export const useDecideApproval = () =>
  useApprovalMutation(({ id, decision }: { id: string; decision: Decision }) => api.post<ApprovalJson>(`/api/admin/approvals/${encodeURIComponent(id)}/${decision}`));
