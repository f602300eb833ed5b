import { randomBytes } from 'node:crypto';

// Crockford-style alphabet without look-alikes; 10 characters = 50 bits of randomness.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

export function newReferralCode(length = 10): string {
  const bytes = randomBytes(length * 2);
  let code = '';
  for (let i = 0; code.length < length && i < bytes.length; i++) {
    const b = bytes[i] as number;
    // Rejection sampling keeps every character equally likely.
    if (b < 256 - (256 % ALPHABET.length)) code += ALPHABET[b % ALPHABET.length];
  }
  return code.length === length ? code : newReferralCode(length);
}
