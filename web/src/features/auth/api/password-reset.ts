import { useMutation } from '@tanstack/react-query';
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
