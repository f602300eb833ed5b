import { z } from 'zod';
import { isoTime, money, personJson } from './json-parts.ts';

/** A passkey of the signed-in user (Profile > Security). */
export const passkeyJson = z.object({ _id: z.string(), name: z.string(), createdAt: isoTime, lastUsedAt: isoTime.nullable() });
export type PasskeyJson = z.infer<typeof passkeyJson>;

/** GET /api/users/2fa: the signed-in user's second factors (`on`: any of them). */
export const twoFactorStatus = z.object({ on: z.boolean(), totp: z.boolean(), passkeys: z.array(passkeyJson), recoveryCodesLeft: z.number().int(), required: z.boolean() });
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;
export const referralPerson = personJson;
export type ReferralPerson = z.infer<typeof referralPerson>;

/** Whose a referral code is: their name and nothing else (anyone may ask). */
export const referrerJson = z.object({ name: z.string() });
export type ReferrerJson = z.infer<typeof referrerJson>;

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
export const adminUserListItem = userJson.omit({ referralCommand: true, referralCount: true }).extend({ createdAt: isoTime });
export type AdminUserListItem = z.infer<typeof adminUserListItem>;

export const exchangeResult = z.object({ message: z.string(), activeBalance: money, passiveBalance: money });
export type ExchangeResult = z.infer<typeof exchangeResult>;

/** POST /api/users/cashout/preview: what a cashout to the wallet would do now (shown before it is confirmed). */
export const cashoutPreviewJson = z.object({
  /** The whole active balance. */
  amountUsd: money,
  wallet: z.string(),
  /** The account was never paid to this wallet: the e-mail with the link that cancels it goes out, and it waits until `holdUntil` (null: no wait). */
  newWallet: z.boolean(),
  holdUntil: isoTime.nullable(),
});
export type CashoutPreviewJson = z.infer<typeof cashoutPreviewJson>;

/** POST /api/users/cashout/cancel: what the new-wallet e-mail's link did (the same answer on every use). */
export const cashoutCancelJson = z.object({
  message: z.string(),
  /** The wallet, now blocked for the account (lower case). */
  wallet: z.string(),
  /** Cashouts to it cancelled, and the amount back in the active balance. */
  cancelled: z.number().int(),
  returnedUsd: money,
  /** Cashouts to it already being paid (a payout transaction named): not stopped. */
  stillPaying: z.number().int(),
});
export type CashoutCancelJson = z.infer<typeof cashoutCancelJson>;

/** POST /api/users/2fa/totp: the secret to scan (as an otpauth:// URL for the QR code). */
export const totpEnrolmentJson = z.object({ secret: z.string(), otpauthUrl: z.string() });
/** POST /api/users/2fa/totp/confirm: the recovery codes, shown once. */
export const recoveryCodesJson = z.object({ recoveryCodes: z.array(z.string()) });
/** POST /api/users/2fa/passkeys (201): the new passkey, and recovery codes when it is the account's first factor. */
export const passkeyRegisteredJson = z.object({ passkey: passkeyJson, recoveryCodes: z.array(z.string()).optional() });
/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or ...RequestOptionsJSON, as @simplewebauthn makes them). */
export const webAuthnOptionsJson = z.looseObject({ challenge: z.string() });
