import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CashoutJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { usersQueryKey, cashoutsQueryKey, adminWaitingQueryKey } from '@/lib/query-keys';

export const rejectCashout = (id: string): Promise<CashoutJson> =>
  api.post<CashoutJson>(`/api/admin/cashouts/${encodeURIComponent(id)}/reject`);

/** Admin: rejects a cashout; the amount goes back to the user's active balance. */
export function useRejectCashout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectCashout,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: cashoutsQueryKey });
      // One cashout fewer to pay (the Admin menu's count).
      await queryClient.invalidateQueries({ queryKey: adminWaitingQueryKey });
      // The user's balance changed: user lists and details are out of date.
      await queryClient.invalidateQueries({ queryKey: usersQueryKey, refetchType: 'none' });
    },
  });
}
