import { z } from 'zod';
import { ETH_ADDRESS } from '../contract/wallet.ts';
import { parseDisplayCurrencies } from '../contract/locales.ts';
import { formatDay } from '../contract/time.ts';

/** The shapes the configuration's variables share (config.ts and its parts). */
export const address = z
  .string()
  .regex(ETH_ADDRESS, 'must be a 0x-prefixed 20-byte hex address');
export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
export const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits');
/** An amount of ETH or gwei as written (up to 9 decimals): parsed to wei exactly, never through a float. */
export const decimalAmount = z.string().trim().regex(/^\d{1,9}(\.\d{1,9})?$/, 'must be a non-negative number such as 30 or 0.05');
/** What npm start's demo shop shows prices in besides USD. */
export const DEMO_DISPLAY_CURRENCIES = 'AZN:1.70';

/** DISPLAY_CURRENCIES (AZN:1.70 or AZN:1.70:2026-11-29), parsed; a malformed entry stops the process. */
export const displayCurrencies = z.string().transform((value, ctx) => {
  try {
    return parseDisplayCurrencies(value, formatDay(new Date()));
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
