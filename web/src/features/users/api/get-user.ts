import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { userQueryKey } from '@/lib/query-keys';

export const getUser = (id: string, { signal }: { signal?: AbortSignal } = {}): Promise<UserJson> =>
  api.get<UserJson>(`/api/users/${encodeURIComponent(id)}`, signal ? { signal } : {});

/** Admin: one user's details, cached 5 s. */
export const getUserQueryOptions = (id: string) =>
  queryOptions({
    queryKey: userQueryKey(id),
    queryFn: ({ signal }) => getUser(id, { signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useUser(id: string) {
  return useQuery(getUserQueryOptions(id));
}
