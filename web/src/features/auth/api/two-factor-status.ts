import { useQuery } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { twoFactorQueryKey } from '@/lib/query-keys';

// Apart from two-factor.ts: the route guards, which every page loads, read only this.
/** The signed-in user's second factors, and whether this shop requires one of them. */
export function useTwoFactorStatus(enabled = true) {
  return useQuery({ queryKey: twoFactorQueryKey, queryFn: () => api.get<TwoFactorStatus>('/api/users/2fa'), enabled });
}
