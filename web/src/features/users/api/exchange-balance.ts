import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExchangeBody, ExchangeResult, UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { profileQueryKey, statementQueryKey } from '@/lib/query-keys';
import { getUserInfo, setUserInfo } from '@/stores/auth-store';

/** Moves the confirmed amount; the request id makes a resend harmless. */
export const exchangeBalance = (body: ExchangeBody): Promise<ExchangeResult> => api.post<ExchangeResult>('/api/users/exchange', body);

/** Moves an amount of the active balance to the passive one; the returned balances replace the local ones. */
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
    // Refused (the balance changed since the page read it: a 409): the page reads the balances again.
    onError: () => void queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}
