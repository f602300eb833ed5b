import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { profileQueryKey } from '@/lib/query-keys';
import { setUserInfo } from '@/stores/auth-store';

export type CashoutInput = { wallet: string };

/** The server moves the whole active balance out and answers with the updated user. */
export const requestCashout = (input: CashoutInput): Promise<UserJson> =>
  api.post<UserJson>('/api/users/cashout', input);

/** SPEC.md section 4: on success the returned user (balance 0) replaces the stored one. */
export function useRequestCashout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestCashout,
    onSuccess: (user) => {
      setUserInfo(user);
      queryClient.setQueryData(profileQueryKey, user);
      // Marked stale, not refetched here: /profile refetches when it opens next.
      void queryClient.invalidateQueries({ queryKey: profileQueryKey, refetchType: 'none' });
    },
  });
}
