import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usersQueryKey } from '@/lib/query-keys';

export const deleteUser = (id: string): Promise<{ message?: string }> =>
  api.delete(`/api/users/${encodeURIComponent(id)}`);

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
