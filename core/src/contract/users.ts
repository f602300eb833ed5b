import { z } from 'zod';
import { emailField, ethAddress, isoTime, money, nameField, passwordField, personJson, signedUsd, signedUsdAmount } from './common.ts';

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

/** A passkey of the signed-in user (Profile > Security). */
export const passkeyJson = z.object({ _id: z.string(), name: z.string(), createdAt: isoTime, lastUsedAt: isoTime.nullable() });
export type PasskeyJson = z.infer<typeof passkeyJson>;

/** GET /api/users/2fa: the signed-in user's second factors (`on`: any of them). */
export const twoFactorStatus = z.object({ on: z.boolean(), totp: z.boolean(), passkeys: z.array(passkeyJson), recoveryCodesLeft: z.number().int(), required: z.boolean() });
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

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
});

export const cashoutBody = z.object({ wallet: ethAddress });

export const referralPerson = personJson;
export type ReferralPerson = z.infer<typeof referralPerson>;

export const userJson = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  activeBalance: money,
  passiveBalance: money,
  referralCode: z.string(),
  /** The newest REFERRALS_SHOWN people referred; the whole list is paged at GET /api/users/profile/referrals. */
  referralCommand: z.array(referralPerson),
  /** How many people this user referred (the profile's count). */
  referralCount: z.number().int(),
  /** PUT /api/users/:id (202): the balance increase held for a second admin's approval. */
  pendingApproval: z.object({ _id: z.string(), amountUsd: money }).optional(),
  /** PUT /api/users/:id (202): admin rights for this user, held for a second admin's approval. */
  pendingAdminGrant: z.object({ _id: z.string() }).optional(),
});
export type UserJson = z.infer<typeof userJson>;

/** How many referred people the user JSON carries; referralCount is the whole count. */
export const REFERRALS_SHOWN = 50;

export const adminUserListItem = userJson.omit({ referralCommand: true, referralCount: true }).extend({ createdAt: isoTime });
export type AdminUserListItem = z.infer<typeof adminUserListItem>;

export const exchangeResult = z.object({ message: z.string(), activeBalance: money, passiveBalance: money });
export type ExchangeResult = z.infer<typeof exchangeResult>;

/** POST /api/users/2fa/totp: the secret to scan (as an otpauth:// URL for the QR code). */
export const totpEnrolmentJson = z.object({ secret: z.string(), otpauthUrl: z.string() });
/** POST /api/users/2fa/totp/confirm: the recovery codes, shown once. */
export const recoveryCodesJson = z.object({ recoveryCodes: z.array(z.string()) });
/** POST /api/users/2fa/passkeys (201): the new passkey, and recovery codes when it is the account's first factor. */
export const passkeyRegisteredJson = z.object({ passkey: passkeyJson, recoveryCodes: z.array(z.string()).optional() });
/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or ...RequestOptionsJSON, as @simplewebauthn makes them). */
export const webAuthnOptionsJson = z.looseObject({ challenge: z.string() });
