import { z } from 'zod';
import { emailField, nameField, passwordField, signedUsdAmount, ethAddress } from './common.ts';

export const registerBody = z.object({
  email: emailField,
  password: passwordField,
  name: nameField,
  referredBy: z
    .string()
    .trim()
    .max(32, 'is too long')
    .optional()
    .nullable()
    .transform((v) => (v ? v.toUpperCase() : undefined)),
});

export const loginBody = z.object({
  email: z.string().trim().max(254).transform((v) => v.toLowerCase()),
  password: z.string().max(200),
  /** The second step for an account with two-factor sign-in: a TOTP code or a recovery code. */
  code: z.string().trim().max(40).optional(),
});

export const twoFactorCodeBody = z.object({ code: z.string().trim().min(1, 'is required').max(40, 'is too long') });
export const passwordCheckBody = z.object({ password: z.string().min(1, 'is required').max(200, 'is too long') });

/** GET /api/users/2fa: the signed-in user's second factors. */
export type TwoFactorStatus = { totp: boolean; recoveryCodesLeft: number; required: boolean };

export const passwordResetBody = z.object({ email: emailField });
export const passwordResetConfirmBody = z.object({
  token: z.string().trim().min(20, 'is not a reset token').max(200, 'is not a reset token'),
  password: passwordField,
});

export const updateProfileBody = z.object({
  _id: z.string().optional(), // sent by the SPEC's client; the session decides whose profile it is
  name: nameField.optional(),
  email: emailField.optional(),
  password: z.union([passwordField, z.literal('')]).optional(),
});

export const adminUpdateUserBody = z.object({
  userId: z.string().optional(),
  name: nameField,
  email: emailField,
  isAdmin: z.boolean(),
  activeBalance: signedUsdAmount,
  passiveBalance: signedUsdAmount,
  // The balances the form showed: a balance that moved since is not overwritten (409).
  loadedActiveBalance: signedUsdAmount,
  loadedPassiveBalance: signedUsdAmount,
  password: z.union([passwordField, z.literal('')]).optional(),
});

export const cashoutBody = z.object({ wallet: ethAddress });

export type ReferralPerson = { _id: string; name: string };

export type UserJson = {
  _id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  activeBalance: number;
  passiveBalance: number;
  referralCode: string;
  /** The newest REFERRALS_SHOWN people referred; the whole list is paged at GET /api/users/profile/referrals. */
  referralCommand: ReferralPerson[];
  /** How many people this user referred (the profile's count). */
  referralCount: number;
  /** PUT /api/users/:id (202): the balance increase held for a second admin's approval. */
  pendingApproval?: { _id: string; amountUsd: number };
};

/** How many referred people the user JSON carries; referralCount is the whole count. */
export const REFERRALS_SHOWN = 50;

export type AdminUserListItem = Omit<UserJson, 'referralCommand' | 'referralCount'> & { createdAt: string };

export type ExchangeResult = { message: string; activeBalance: number; passiveBalance: number };
