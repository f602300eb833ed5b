import { z } from 'zod';
import { heldChangeReason } from './approvals.ts';
import { emailField, ethAddress, nameField, passwordField, signedUsd, signedUsdAmount, usdAmount } from './common.ts';

/** A referral code as a person types or a link carries it: any case (codes are stored upper-case). */
const referralCodeText = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once') }).trim().max(32, 'is too long');

export const registerBody = z.object({
  email: emailField,
  password: passwordField,
  name: nameField,
  referredBy: referralCodeText
    .optional()
    .nullable()
    .transform((v) => (v ? v.toUpperCase() : undefined)),
});

/** GET /api/users/referrer: whose a referral code is, for the register page. */
export const referrerQuery = z.object({
  referralCode: referralCodeText.min(1, 'is required').transform((v) => v.toUpperCase()),
});

const b64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*={0,2}$/, 'must be base64url');

/** What navigator.credentials.get() gives (as @simplewebauthn/browser encodes it): a passkey's answer to a challenge. */
export const passkeyAssertion = z.object({
  id: b64url(1400).min(1),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(20_000),
    authenticatorData: b64url(20_000),
    signature: b64url(2_000),
    userHandle: b64url(1_000).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

/** What navigator.credentials.create() gives: a new passkey to register. */
export const passkeyRegistrationBody = z.object({
  name: z.string().trim().min(1, 'is required').max(100, 'is too long'),
  response: z.object({
    id: b64url(1400).min(1),
    rawId: b64url(1400),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: b64url(20_000),
      attestationObject: b64url(100_000),
      authenticatorData: b64url(100_000).optional(),
      transports: z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64url(10_000).optional(),
    }),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  }),
});

export const loginBody = z.object({
  email: z.string().trim().max(254).transform((v) => v.toLowerCase()),
  password: z.string().max(200),
  /** The second step for an account with two-factor sign-in: a TOTP code or a recovery code... */
  code: z.string().trim().max(40).optional(),
  /** ...or the passkey's answer to the challenge the first step gave. */
  passkey: passkeyAssertion.optional(),
});

/** POST /api/users/2fa/step-up: a code, or a passkey's answer to the step-up challenge. */
export const stepUpBody = z.union([z.object({ passkey: passkeyAssertion }), z.object({ code: z.string().trim().min(1, 'is required').max(40, 'is too long') })]);

export const twoFactorCodeBody = z.object({ code: z.string().trim().min(1, 'is required').max(40, 'is too long') });
export const passwordCheckBody = z.object({ password: z.string().min(1, 'is required').max(200, 'is too long') });

export const passwordResetBody = z.object({ email: emailField });
const resetToken = z.string().trim().min(20, 'is not a reset token').max(200, 'is not a reset token');
export const passwordResetCheckBody = z.object({ token: resetToken });
export const passwordResetConfirmBody = z.object({
  token: resetToken,
  password: passwordField,
});

export const updateProfileBody = z.object({
  _id: z.string().optional(), // sent by the SPEC's client; the session decides whose profile it is
  name: nameField.optional(),
  email: emailField.optional(),
  password: z.union([passwordField, z.literal('')]).optional(),
  /** Needed with a new e-mail or password: a stolen session alone must not take the account over. */
  currentPassword: z.string().max(200, 'is too long').optional(),
});

/** A balance edit without the balances its form showed: what to send, and why (a stale-form guard). */
export const LOADED_BALANCES_MISSING =
  'is missing: send loadedActiveBalance and loadedPassiveBalance, the balances your form was loaded with, so a balance that changed since is not overwritten. Reload the user and save again.';

export const adminUpdateUserBody = z.object({
  userId: z.string().optional(),
  name: nameField,
  email: emailField,
  isAdmin: z.boolean(),
  activeBalance: signedUsdAmount,
  passiveBalance: signedUsdAmount,
  // The balances the form showed: a balance that moved since is not overwritten (409).
  loadedActiveBalance: signedUsd({ missing: LOADED_BALANCES_MISSING }),
  loadedPassiveBalance: signedUsd({ missing: LOADED_BALANCES_MISSING }),
  password: z.union([passwordField, z.literal('')]).optional(),
  approvalReason: heldChangeReason,
});

export const cashoutBody = z.object({ wallet: ethAddress });
/**
 * POST /api/users/exchange: the amount the user confirmed (the whole active balance when
 * it is left out), and the confirmation's own id, so sending it twice moves it once.
 */
export const exchangeBody = z.object({
  amount: usdAmount.optional(),
  requestId: z.uuid('must be a UUID').optional(),
});
export type ExchangeBody = z.input<typeof exchangeBody>;
/** The token of the link in the new-wallet e-mail. */
export const cancelCashoutBody = z.object({ token: z.string().trim().min(20, 'is not a link token').max(200, 'is not a link token') });

/** How many referred people the user JSON carries; referralCount is the whole count. */
export const REFERRALS_SHOWN = 50;

export type { PasskeyJson, TwoFactorStatus, UserJson } from './users-json.ts';
