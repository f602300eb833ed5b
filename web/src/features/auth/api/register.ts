import { useMutation } from '@tanstack/react-query';
import type { UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { setUserInfo } from '@/stores/auth-store';

export type RegisterInput = { email: string; password: string; name: string; referredBy?: string };

export const register = (input: RegisterInput): Promise<UserJson> => api.post<UserJson>('/api/users', input);

/** Creates the account (the server signs it in) and stores the user as userInfo. */
export function useRegister() {
  return useMutation({ mutationFn: register, onSuccess: (user) => setUserInfo(user) });
}
