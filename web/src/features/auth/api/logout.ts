import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { clearUserInfo } from '@/stores/auth-store';

export const logout = (): Promise<unknown> => api.post('/api/users/logout');

/**
 * Signs out locally even when the server call fails (SPEC.md: a logout failure is
 * only logged), and drops cached server data so the next user cannot see it.
 */
export function useLogout(options: { onDone?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await logout();
      } catch (error) {
        console.error('Logout failed', error);
      }
    },
    onSettled: () => {
      clearUserInfo();
      queryClient.clear();
      options.onDone?.();
    },
  });
}
