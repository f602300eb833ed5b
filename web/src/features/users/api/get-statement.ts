import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyCashoutJson, StatementEntryJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { usePagedQuery } from '@/lib/paged-query';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { statementQueryKey, myCashoutsQueryKey } from '@/lib/query-keys';

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
