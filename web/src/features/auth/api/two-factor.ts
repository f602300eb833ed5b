import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@shop/core/contract';
import { api, isApiError } from '@/lib/api-client';

export const twoFactorQueryKey = ['two-factor'] as const;

/** The signed-in user's second factors, and whether this shop requires one of them. */
export function useTwoFactorStatus(enabled = true) {
  return useQuery({ queryKey: twoFactorQueryKey, queryFn: () => api.get<TwoFactorStatus>('/api/users/2fa'), enabled });
}

/** Starts TOTP enrolment with the account's password: a secret and its otpauth:// URL for the QR code. */
export function useStartTotp() {
  return useMutation({ mutationFn: (password: string) => api.post<{ secret: string; otpauthUrl: string }>('/api/users/2fa/totp', { password }) });
}

/**
 * Confirms enrolment with a first code; answers the ten recovery codes, shown once (the
 * caller keeps them on screen, then reads the status again: refetching here would unmount
 * the form before its own success callback ran).
 */
export function useConfirmTotp() {
  return useMutation({ mutationFn: (code: string) => api.post<{ recoveryCodes: string[] }>('/api/users/2fa/totp/confirm', { code }) });
}

/** Turns TOTP off with a current code (or a recovery code). */
export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post<{ message: string }>('/api/users/2fa/totp/disable', { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKey }),
  });
}

/** A sign-in answer that asks for the second step (the account has two-factor sign-in). */
export function asksForCode(error: unknown): boolean {
  return isApiError(error) && error.status === 401 && (error.data as { twoFactorRequired?: unknown } | undefined)?.twoFactorRequired === true;
}
