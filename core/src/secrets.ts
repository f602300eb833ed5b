import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret someone presented equals the one configured, in time that does not
 * depend on where they differ (or on their lengths: both are hashed to 32 bytes first), so
 * response times never leak how much of a guess was right.
 */
export function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
