import { z } from 'zod';
import { assetJson, isoTime } from './json-parts.ts';

/**
 * The signed transfer's typed data, window and domain (signed-transfer.ts) sit apart from
 * these schemas: the pay page imports them, and a zod schema built in the browser asks
 * for eval (zod's object parser compiles itself with Function), which the app's
 * Content-Security-Policy refuses.
 */
export * from './signed-transfer.ts';

const hexAddress = z.string().trim().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address (0x and 40 hex digits)');
const uint = (max: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,78}$/, 'must be a whole number written in decimal digits')
    .refine((v) => BigInt(v) <= BigInt(max), 'is too large');
const UINT256_MAX = (2n ** 256n - 1n).toString();

/** POST /api/orders/:id/authorization: the signed message, numbers as decimal strings, and the signature. */
export const authorizationBody = z.object({
  asset: assetJson,
  from: hexAddress,
  to: hexAddress,
  value: uint(UINT256_MAX),
  validAfter: uint(UINT256_MAX),
  validBefore: uint(UINT256_MAX),
  nonce: z.string().trim().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32 bytes (0x and 64 hex digits)'),
  // 65 bytes from a key; a smart-contract wallet's (ERC-1271) may be longer.
  signature: z.string().trim().regex(/^0x[0-9a-fA-F]{130,}$/, 'must be a signature (0x followed by hex)').max(2_000, 'is too long'),
});
export type AuthorizationBody = z.infer<typeof authorizationBody>;

export const RELAY_STATUSES = ['RECEIVED', 'SENT', 'CONFIRMED', 'FAILED', 'DROPPED'] as const;
export type RelayStatus = (typeof RELAY_STATUSES)[number];

/**
 * An order's latest signed authorization as its buyer reads it: where the shop's
 * transaction is. `message`: what the buyer is told (never the operator's reason).
 */
export const orderAuthorizationJson = z.object({
  _id: z.string(),
  asset: assetJson,
  status: z.enum(RELAY_STATUSES),
  txHash: z.string().nullable(),
  message: z.string(),
  createdAt: isoTime,
});
export type OrderAuthorizationJson = z.infer<typeof orderAuthorizationJson>;

/** The answer to POST /api/orders/:id/authorization (202). */
export const authorizationAcceptedJson = z.object({ _id: z.string(), status: z.enum(RELAY_STATUSES), message: z.string() });

/** What the buyer reads of an authorization in each state. */
export function authorizationMessage(status: RelayStatus): string {
  switch (status) {
    case 'RECEIVED':
      return 'Signature received: the shop is sending your payment';
    case 'SENT':
      return 'Your payment is on its way: the shop sent it and pays its network fee';
    case 'CONFIRMED':
      return 'Your payment was sent on chain';
    case 'FAILED':
      return 'Your signed payment failed on chain (the USDC was no longer there, or the signature was used): the order is not paid';
    case 'DROPPED':
      return 'Your signed payment could not be sent: the order is not paid. Sign again, or send the transfer from your wallet';
  }
}
