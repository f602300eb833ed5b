import { z } from 'zod';
import { ETH_ADDRESS } from './wallet.ts';

/** A USD amount: number or numeric string, at most 2 decimals, 0..1e12; parsed to a fixed-2 string. */
export const usdAmount = z.union([z.number(), z.string().trim().max(20)]).transform((v, ctx) => {
  if (typeof v === 'number') {
    const cents = v * 100;
    if (Number.isFinite(v) && v >= 0 && v < 1e12 && Math.abs(cents - Math.round(cents)) < 1e-6) return v.toFixed(2);
  } else if (/^\d{1,12}(\.\d{1,2})?$/.test(v)) {
    return v.includes('.') ? `${v}00`.replace(/(\.\d{2})\d*$/, '$1') : `${v}.00`;
  }
  ctx.addIssue({ code: 'custom', message: 'must be a non-negative amount with at most 2 decimals' });
  return z.NEVER;
});

/**
 * A USD amount that may be negative (a balance after a reversal): number or numeric
 * string, at most 2 decimals. `missing`: the message when the field is not sent at all.
 */
export const signedUsd = (opts: { missing?: string } = {}) =>
  z
    .union([z.number(), z.string().trim().max(21)], { error: (issue) => (issue.input === undefined ? opts.missing : undefined) })
    .transform((v, ctx) => {
      const text = typeof v === 'number' ? String(v) : v;
      const negative = text.startsWith('-');
      const parsed = usdAmount.safeParse(negative ? (typeof v === 'number' ? -v : text.slice(1)) : v);
      if (parsed.success) return negative && parsed.data !== '0.00' ? `-${parsed.data}` : parsed.data;
      ctx.addIssue({ code: 'custom', message: 'must be an amount with at most 2 decimals' });
      return z.NEVER;
    });
export const signedUsdAmount = signedUsd();

export const intInRange = (min: number, max: number) =>
  // Neither a number nor digits ('2.5', 'abc'): one message, not zod's 'Invalid input' of a union.
  z.union([z.number(), z.string().trim().regex(/^-?\d{1,9}$/).transform(Number)], { error: 'must be a whole number' }).pipe(
    z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
  );

export const idParam = z.string().uuid('is not a valid id');

export const emailField = z
  .string()
  .trim()
  .max(254, 'is too long')
  .email('must be a valid e-mail address')
  .transform((v) => v.toLowerCase());

/** The shortest password the shop accepts (the forms say so before the server does). */
export const PASSWORD_MIN_LENGTH = 8;
export const passwordField = z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`).max(200, 'is too long');
export const nameField = z.string().trim().min(1, 'is required').max(100, 'is too long (100 characters at most)');

export const ethAddress = z.string().trim().regex(ETH_ADDRESS, 'must be an Ethereum address (0x followed by 40 hex characters)');
export const txHash = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash (0x followed by 64 hex characters)')
  .transform((v) => v.toLowerCase());
