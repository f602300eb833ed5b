import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { profileQueryKey } from '@/lib/query-keys';

export const getProfile = ({ signal }: { signal?: AbortSignal } = {}): Promise<UserJson> =>
  api.get<UserJson>('/api/users/profile', signal ? { signal } : {});

/** The signed-in user's own record (the profile page; the cashout page reads the balance from it), cached 5 s like the other user details. */
export const getProfileQueryOptions = () =>
  queryOptions({
    queryKey: profileQueryKey,
    queryFn: ({ signal }) => getProfile({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useProfile() {
  return useQuery(getProfileQueryOptions());
}
