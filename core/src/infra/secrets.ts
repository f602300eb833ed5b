import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

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

/** A key of its own for each purpose, derived from the server's secret (HKDF-SHA256). */
function purposeKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', `shop:${purpose}`, 32));
}

/**
 * Seals a short secret for storage (AES-256-GCM, a key derived from `secret` for
 * `purpose`): only a process holding the server's secret opens it, and a sealed value
 * changed by anyone does not open at all.
 */
export function seal(plain: string, secret: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', purposeKey(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The value `seal` sealed, or null when it was sealed with another secret or purpose or was changed. */
export function unseal(sealed: string, secret: string, purpose: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', purposeKey(secret, purpose), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The SHA-256 of a token, hex: what is stored to recognise a token without keeping it. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
