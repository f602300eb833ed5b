export type { PayoutVerdict } from './types.ts';
export * from './refunds.ts';
export * from './payout-checks.ts';
export * from './verify-payout.ts';
export * from './issuer-blocklist.ts';
