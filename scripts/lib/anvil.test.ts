import { describe, expect, it } from 'vitest';
import { isRpcUp, startAnvil } from './anvil.ts';

describe('startAnvil', () => {
  it('starts a chain-id-1 node on a free port and stops it', async () => {
    const anvil = await startAnvil();
    try {
      expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`);
      const res = await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      expect(((await res.json()) as { result: string }).result).toBe('0x1');
    } finally {
      await anvil.stop();
    }
    expect(await isRpcUp(anvil.rpcUrl)).toBe(false);
    await anvil.stop(); // a second stop is harmless
  });

  it('refuses a port that is already taken instead of sharing it', async () => {
    const first = await startAnvil();
    try {
      await expect(startAnvil({ port: first.port })).rejects.toThrow(/already in use by an Ethereum node/);
      expect(await isRpcUp(first.rpcUrl)).toBe(true);
    } finally {
      await first.stop();
    }
  });

  it('starts the chain at the genesis timestamp it is given, so a test can count on another chain', async () => {
    const anvil = await startAnvil({ genesisTimestamp: 1 });
    try {
      const res = await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x0', false] }),
      });
      expect(((await res.json()) as { result: { timestamp: string } }).result.timestamp).toBe('0x1');
    } finally {
      await anvil.stop();
    }
  });

  it('reports nothing listening as down', async () => {
    expect(await isRpcUp('http://127.0.0.1:1', 500)).toBe(false);
  });
});
