import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyCashoutJson, StatementEntryJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { usePagedQuery } from '@/lib/paged-query';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { profileQueryKey } from './get-profile';

/** Under the profile's key: whatever changes the balance (exchange, cashout) marks these stale too. */
export const statementQueryKey = [...profileQueryKey, 'statement'] as const;
export const myCashoutsQueryKey = [...profileQueryKey, 'cashouts'] as const;

/** The signed-in user's ledger, newest first, a page at a time (GET /api/users/profile/statement). */
export function useStatement() {
  return usePagedQuery<StatementEntryJson>(statementQueryKey, '/api/users/profile/statement', { limit: 20 });
}

/** The user's cashouts still waiting to be paid, oldest first. */
export function useMyOpenCashouts() {
  return useQuery(
    queryOptions({
      queryKey: myCashoutsQueryKey,
      queryFn: ({ signal }) => api.get<MyCashoutJson[]>('/api/users/profile/cashouts', { signal }),
      staleTime: SHORT_STALE_TIME,
    }),
  );
}
