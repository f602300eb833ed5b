import { pad } from 'viem';
import { describe, expect, it } from 'vitest';
import { tokenBySymbol } from '../../contract/tokens.ts';
import { TRANSFER_TOPIC } from './abi.ts';
import { transferLogOf } from './logs.ts';

/** Which logs are a token's ERC-20 transfers (the node's answer is read by transferLogOf). */
const USDC = tokenBySymbol('USDC');
const from = '0x00000000000000000000000000000000000000aa';
const to = '0x00000000000000000000000000000000000000bb';
const log = {
  address: USDC.address.toLowerCase(),
  topics: [TRANSFER_TOPIC, pad(from), pad(to)] as `0x${string}`[],
  data: pad('0x2a'),
  transactionHash: `0x${'12'.repeat(32)}` as `0x${string}`,
  logIndex: '0x7' as `0x${string}`,
  removed: false,
};

describe('transferLogOf', () => {
  it('reads a Transfer of the pinned token: from, to, amount, its index', () => {
    expect(transferLogOf(USDC.address, log)).toEqual({ token: USDC.address.toLowerCase(), txHash: log.transactionHash, logIndex: 7, from, to, amount: 42n });
  });

  it('refuses another contract, an ERC-721 Transfer (four topics), another event, a removed log, a malformed value', () => {
    expect(transferLogOf(USDC.address, { ...log, address: '0x00000000000000000000000000000000000000cc' })).toBeNull();
    expect(transferLogOf(USDC.address, { ...log, topics: [...log.topics, pad('0x01')], data: '0x' })).toBeNull();
    expect(transferLogOf(USDC.address, { ...log, topics: [`0x${'00'.repeat(32)}`, pad(from), pad(to)] })).toBeNull();
    expect(transferLogOf(USDC.address, { ...log, removed: true })).toBeNull();
    expect(transferLogOf(USDC.address, { ...log, data: '0x2a' })).toBeNull();
    expect(transferLogOf(USDC.address, { ...log, logIndex: null })).toBeNull();
  });
});
