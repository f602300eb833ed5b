import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExchangeResult, UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { profileQueryKey, statementQueryKey } from '@/lib/query-keys';
import { getUserInfo, setUserInfo } from '@/stores/auth-store';

export const exchangeBalance = (): Promise<ExchangeResult> => api.post<ExchangeResult>('/api/users/exchange');

/** Moves the active balance to the passive one; the returned balances replace the local ones. */
export function useExchangeBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: exchangeBalance,
    onSuccess: ({ activeBalance, passiveBalance }) => {
      const user = getUserInfo();
      if (user) setUserInfo({ ...user, activeBalance, passiveBalance });
      queryClient.setQueryData<UserJson>(profileQueryKey, (old) =>
        old ? { ...old, activeBalance, passiveBalance } : old,
      );
      void queryClient.invalidateQueries({ queryKey: statementQueryKey });
    },
  });
}
