import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Asks for a reset link by e-mail (the answer is the same whether or not the e-mail has an account). */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: (email: string) => api.post<{ message: string }>('/api/users/password-reset', { email }) });
}

/** Sets a new password with the link's token; every session of the account ends. */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => api.post<{ message: string }>('/api/users/password-reset/confirm', input),
  });
}

/**
 * Whether the link's token still works, asked once when the page opens: a used or
 * expired link says so before a new password is typed (a 400 with the server's message).
 */
export function useCheckPasswordReset(token: string) {
  return useQuery({
    queryKey: ['password-reset-check', token],
    queryFn: ({ signal }) => api.post<{ message: string }>('/api/users/password-reset/check', { token }, { signal }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}
