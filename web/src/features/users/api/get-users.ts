import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUserListItem } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';

export const getUsers = ({ signal }: { signal?: AbortSignal } = {}): Promise<AdminUserListItem[]> =>
  api.get<AdminUserListItem[]>('/api/users', signal ? { signal } : {});

/** Every user query (list, details, profile) sits under this key. */
export const usersQueryKey = ['users'] as const;
export const userListQueryKey = [...usersQueryKey, 'list'] as const;

/** Admin: the user list, cached 5 s. */
export const getUsersQueryOptions = () =>
  queryOptions({
    queryKey: userListQueryKey,
    queryFn: ({ signal }) => getUsers({ signal }),
    staleTime: SHORT_STALE_TIME,
  });

export function useUsers() {
  return useQuery(getUsersQueryOptions());
}
