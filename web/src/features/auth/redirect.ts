import { useSearchParams } from 'react-router-dom';

/**
 * The redirect target of /login and /register: a path on this site, '/' by default.
 * Anything else (another origin, '//host') is ignored so the link cannot send a user
 * off-site after signing in.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}

export function useRedirectTarget(): string {
  const [params] = useSearchParams();
  return safeRedirect(params.get('redirect'));
}

/** `/login?redirect=/placeorder`: the target stays readable, other characters are escaped. */
export function withRedirect(path: string, target: string): string {
  return `${path}?redirect=${encodeURIComponent(target).replace(/%2F/gi, '/')}`;
}

/** Router state of the /login visit that an admin screen caused for a non-admin. */
export const ADMIN_REQUIRED_STATE = { adminRequired: true } as const;

export function isAdminRequiredState(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { adminRequired?: unknown }).adminRequired === true;
}
