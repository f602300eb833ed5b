import type { AdminUserListItem } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';

/** Every user query (list, details, profile) sits under this key. */
export const usersQueryKey = ['users'] as const;
export const userListQueryKey = [...usersQueryKey, 'list'] as const;

/** Admin: the users, oldest first, a page at a time, optionally those matching `q` (name or e-mail). */
export function useUsers(q?: string) {
  return usePagedQuery<AdminUserListItem>(userListQueryKey, '/api/users', { q });
}
