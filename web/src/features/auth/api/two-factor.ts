import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasskeyJson } from '@shop/core/contract';
import { api, getErrorMessage, isApiError } from '@/lib/api-client';
import { t } from '@/i18n/i18n';
import { twoFactorQueryKey } from '@/lib/query-keys';

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

type PasskeyRequestOptions = Parameters<typeof import('@simplewebauthn/browser').startAuthentication>[0]['optionsJSON'];

/** The passkey challenge a sign-in's second step carries (the account has a passkey). */
export function passkeyChallenge(error: unknown): PasskeyRequestOptions | null {
  if (!asksForCode(error)) return null;
  return ((error as { data?: { passkey?: PasskeyRequestOptions } }).data?.passkey ?? null) as PasskeyRequestOptions | null;
}

/** The browser's passkey answers a challenge (SimpleWebAuthn, loaded when first needed). */
export async function answerWithPasskey(optionsJSON: PasskeyRequestOptions) {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON });
}

/** What a cancelled or failed browser passkey prompt means to the user. */
export function passkeyErrorMessage(error: unknown): string {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) return t('auth.passkey.closed');
  if (error instanceof Error && error.name === 'InvalidStateError') return t('auth.passkey.registered');

  return getErrorMessage(error);
}

/** Adds a passkey: the password, then the browser creates it, then the server registers it (recovery codes when it is the first second factor). */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ password, name }: { password: string; name: string }) => {
      const optionsJSON = await api.post<Parameters<typeof import('@simplewebauthn/browser').startRegistration>[0]['optionsJSON']>('/api/users/2fa/passkeys/options', { password });
      const { startRegistration } = await import('@simplewebauthn/browser');
      const response = await startRegistration({ optionsJSON });
      return api.post<{ passkey: PasskeyJson; recoveryCodes?: string[] }>('/api/users/2fa/passkeys', { name, response });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKey }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/api/users/2fa/passkeys/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorQueryKey }),
  });
}

/** A step-up with a passkey: a challenge for this session, then the browser's answer. */
export async function stepUpWithPasskey(): Promise<void> {
  const options = await api.post<PasskeyRequestOptions>('/api/users/2fa/step-up/options');
  const passkey = await answerWithPasskey(options);
  await api.post('/api/users/2fa/step-up', { passkey });
}
