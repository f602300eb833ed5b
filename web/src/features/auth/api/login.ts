import { useMutation } from '@tanstack/react-query';
import type { UserJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { setUserInfo } from '@/stores/auth-store';

/** `passkey`: the browser's answer to the challenge the first step gave (as SimpleWebAuthn encodes it). */
export type LoginInput = { email: string; password: string; code?: string; passkey?: unknown };

export const login = (input: LoginInput): Promise<UserJson> => api.post<UserJson>('/api/users/login', input);

/** Signs in and stores the returned user as userInfo (SPEC.md section 4). */
export function useLogin() {
  return useMutation({ mutationFn: login, onSuccess: (user) => setUserInfo(user) });
}
