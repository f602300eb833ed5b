import { z } from 'zod';

// Response building blocks: what the api's JSON answers are made of.

/** A USD amount in a response: a JSON number with at most 2 decimals. */
export const money = z.number();
/** A time in a response: ISO 8601 in UTC (`2026-01-31T12:00:00.000Z`). */
export const isoTime = z.iso.datetime();
/** An amount of wei: a decimal string (it does not fit a JSON number). */
export const weiString = z.string().regex(/^\d+$/, 'must be a decimal string of wei');
/** The assets an amount on chain may be in (the database's enum Asset); only ETH is accepted so far. */
export const ASSETS = ['ETH', 'USDC', 'USDT'] as const;
export type AssetCode = (typeof ASSETS)[number];
export const assetJson = z.enum(ASSETS).describe('The asset the amount is in: ETH, USDC or USDT.');
/** An amount in its asset's smallest units (wei for ETH; millionths for USDC and USDT): a decimal string. */
export const unitsString = z
  .string()
  .regex(/^\d+$/, "must be a decimal string of the asset's smallest units")
  .describe("In the asset's smallest units (wei for ETH, millionths for USDC and USDT), a decimal string.");
/** An answer that only says what happened (`{ message: 'Order deleted' }`). */
export const messageJson = z.object({ message: z.string() });
export type MessageJson = z.infer<typeof messageJson>;
/** A user as lists name them. */
export const personJson = z.object({ _id: z.string(), name: z.string() });
/** A user with the e-mail an admin reads. */
export const personWithEmailJson = z.object({ _id: z.string(), name: z.string(), email: z.string() });
