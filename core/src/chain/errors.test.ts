import { describe, expect, it } from 'vitest';
import { isStateUnavailable } from './errors.ts';

describe("a node's answer that it no longer keeps a block's state", () => {
  it("is read as such from geth, erigon and anvil (restarted from its saved state, it keeps no older block's), and nothing else is", () => {
    expect(isStateUnavailable(new Error('missing trie node 1f2e (path ) state 0x1f2e is not available'))).toBe(true);
    expect(isStateUnavailable(new Error('header not found for state'))).toBe(true);
    // anvil --load-state: the blocks are known, their states are not (npm run reconcile crashed on it).
    expect(isStateUnavailable(new Error('BlockOutOfRangeError: block height is 8 but requested was 6'))).toBe(true);
    expect(isStateUnavailable(new Error('execution reverted'))).toBe(false);
    expect(isStateUnavailable(new Error('fetch failed'))).toBe(false);
  });
});
