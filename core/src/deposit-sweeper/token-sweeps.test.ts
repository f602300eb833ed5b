import { describe, expect, it } from 'vitest';
import { parseGwei } from 'viem';
import { dustFloor, GAS_PER_TOKEN_ITEM, tokensText } from './token-sweeps.ts';

/** The token part of the sweeper's arithmetic: what is dust, and how held tokens read. */
describe('token sweeps: dust and text', () => {
  it('dust is a balance worth less than the gas of one more token deposit at the fee and the ETH price, a token a dollar', () => {
    // 60,000 gas at 10 gwei is 0.0006 ETH; at $3,000 that is $1.80: 1.8 USDC in 6-decimal units.
    expect(GAS_PER_TOKEN_ITEM).toBe(60_000n);
    expect(dustFloor(parseGwei('10'), 3000_00000000n, 6)).toBe(1_800_000n);
    // Rounded down: never more than the gas is worth.
    expect(dustFloor(1n, 3000_00000000n, 6)).toBe(0n);
    expect(dustFloor(parseGwei('30'), 2500_12345678n, 6)).toBe(4_500_222n);
  });

  it('reads held tokens per token, summed, in token units', () => {
    expect(tokensText([
      { asset: 'USDT', balance: 30_500_000n },
      { asset: 'USDC', balance: 25_000_000n },
      { asset: 'USDC', balance: 1n },
    ])).toBe('25.000001 USDC, 30.5 USDT');
  });
});
