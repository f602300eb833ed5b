import { describe, expect, it } from 'vitest';
import type { Hash, PublicClient } from 'viem';
import { notFinalReason, readTransaction } from './transfer-reader.ts';

/**
 * A node that reorganizes while it is asked: the longer fork (head 110) held the
 * transaction in block 100; the heavier one that replaces it is shorter (head 105) and
 * holds it in block 104. The switch happens when the node answers the receipt (it
 * serves the new fork's), so anything asked before that answer came reads the old fork.
 */
function reorganizingNode() {
  const TX = `0x${'11'.repeat(32)}` as Hash;
  const forks = {
    old: { head: 110n, txBlock: 100n, hash: (n: bigint) => `0x${'a'.repeat(60)}${n.toString(16).padStart(4, '0')}` },
    new: { head: 105n, txBlock: 104n, hash: (n: bigint) => `0x${'b'.repeat(60)}${n.toString(16).padStart(4, '0')}` },
  };
  let fork = forks.old;
  const node = {
    getTransaction: async () => ({ hash: TX, from: '0x' + '22'.repeat(20), to: '0x' + '33'.repeat(20), value: 1n, chainId: 1, blockHash: fork.hash(fork.txBlock) }),
    getTransactionReceipt: async () => {
      // A few turns of the event loop: the node is busy switching forks.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      fork = forks.new;
      return { status: 'success', blockNumber: fork.txBlock, blockHash: fork.hash(fork.txBlock), logs: [] };
    },
    getBlockNumber: async () => fork.head,
    getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({ number: blockNumber, hash: fork.hash(blockNumber), timestamp: 1_800_000_000n }),
  };
  return { chain: node as unknown as PublicClient, tx: TX };
}

describe('readTransaction across a reorganization', () => {
  it('counts confirmations at a head read no earlier than the receipt judged, never at the fork the receipt left', async () => {
    const { chain, tx } = reorganizingNode();
    // Waiting for its confirmations, last seen mined in block 100 (the hint).
    const reading = await readTransaction(chain, tx, { blockHint: 100n });
    expect(reading.state).toBe('mined');
    if (reading.state !== 'mined') return;
    expect(reading.tx).toMatchObject({ blockNumber: 104n, canonical: true });
    // In the shop's chain it is in block 104 of 105: 2 confirmations, not 110 - 104 + 1.
    expect(reading.tx.confirmations).toBe(2);
    expect(notFinalReason(reading.tx, 3)).toMatch(/2 of 3/);
  });
});
