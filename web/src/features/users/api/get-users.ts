import type { AdminUserListItem } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { userListQueryKey } from '@/lib/query-keys';

/** Admin: the users, oldest first, a page at a time, optionally those matching `q` (name or e-mail). */
export function useUsers(q?: string) {
  return usePagedQuery<AdminUserListItem>(userListQueryKey, '/api/users', { q });
}
