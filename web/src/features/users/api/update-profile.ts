import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { profileQueryKey } from '@/lib/query-keys';
import { setUserInfo } from '@/stores/auth-store';

/** An empty password leaves the password unchanged; a new e-mail or password needs the current password. */
export type ProfileInput = { _id: string; name: string; email: string; password: string; currentPassword?: string };

export const updateProfile = (input: ProfileInput): Promise<UserJson> =>
  api.put<UserJson>('/api/users/profile', input);

/** SPEC.md section 4: the returned user replaces the stored userInfo. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      setUserInfo(user);
      queryClient.setQueryData(profileQueryKey, user);
    },
  });
}
