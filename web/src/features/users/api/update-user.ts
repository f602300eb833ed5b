import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { usersQueryKey } from '@/lib/query-keys';
import { getUserInfo, setUserInfo } from '@/stores/auth-store';

/** Admin edit of a user; an empty password leaves it unchanged. */
export type UserInput = {
  userId: string;
  name: string;
  email: string;
  isAdmin: boolean;
  activeBalance: number | string;
  passiveBalance: number | string;
  /** The balances the form loaded: a balance that moved since is never overwritten (a 409 otherwise). */
  loadedActiveBalance: number;
  loadedPassiveBalance: number;
  password: string;
  /** Why, for a second admin when the edit waits for one (a large increase, admin rights). */
  approvalReason?: string;
};

export const updateUser = (input: UserInput): Promise<UserJson> =>
  api.put<UserJson>(`/api/users/${encodeURIComponent(input.userId)}`, input);

/** Invalidates the user list (and the details, which share its key prefix). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      // An admin who edits their own record sees the change in the header at once.
      if (user && getUserInfo()?._id === user._id) setUserInfo(user);
      return queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
  });
}
