import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createChainClient, createDb, createLogger, createTracer, indexBlocks, loadConfig, type Db } from '@shop/core';
import { createTestDatabase, type TestDatabase } from '../db/test-database.ts';
import { anvilDriver, ANVIL_ACCOUNTS } from '../testing/chain.ts';
import { freePort } from '../testing/smtp.ts';
import { startAnvil } from './anvil.ts';
import { catchUpClock, chainChanged, startDevChain } from './dev-chain.ts';

/**
 * `npm start` twice: the chain comes back with the database, so what was paid stays
 * paid; a new chain beside a kept database gets a fresh database instead.
 */
let dir: string;
let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'shop-dev-chain-'));
  database = await createTestDatabase(inject('postgresAdminUrl'), inject('templateDatabase'));
  db = createDb({ url: database.url, poolSize: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

const log: string[] = [];
const logger = createLogger({ level: 'silent' });

async function indexOnce(rpcUrl: string) {
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url, ETH_RPC_URL: rpcUrl });
  const chain = createChainClient(rpcUrl);
  return indexBlocks({ config, db, chain, tracer: createTracer(chain, 'auto'), logger });
}

/** Waits until the wall clock is in a later second than when it was called. */
async function nextSecond(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === second) await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

describe('the local chain npm start runs', () => {
  it('continues the same chain across restarts: the indexer sees no reorganization and a counted payment stays counted', async () => {
    const port = await freePort();
    const first = await startDevChain({ dir, port, databaseUrl: database.url, log: (m) => log.push(m) });
    const chain = anvilDriver(first.rpcUrl);
    await indexOnce(first.rpcUrl); // checkpoint with this chain's genesis
    const genesis = (await chain.wallet.getBlock({ blockNumber: 0n })).hash;
    const hash = await chain.sendAndWait(ANVIL_ACCOUNTS[0], ANVIL_ACCOUNTS[1], 10n ** 15n);
    const receipt = await chain.wallet.getTransactionReceipt({ hash });
    await indexOnce(first.rpcUrl);
    await db.payment.updateMany({ where: { txHash: hash.toLowerCase() }, data: { status: 'COUNTED', blockHash: receipt.blockHash } });
    await first.stop();

    // Each restart writes the chain again on stop: the third start reads what the
    // second one wrote, and so on. Anvil stamps the genesis block it makes at start
    // with the current second, so each restart starts in a second of its own.
    for (let restart = 1; restart <= 3; restart++) {
      await nextSecond();
      const again = await startDevChain({ dir, port, databaseUrl: database.url, log: (m) => log.push(m) });
      try {
        expect({ restart, databaseReset: again.databaseReset }).toEqual({ restart, databaseReset: false });
        const node = anvilDriver(again.rpcUrl);
        expect({ restart, genesis: (await node.wallet.getBlock({ blockNumber: 0n })).hash }).toEqual({ restart, genesis });
        expect((await node.wallet.getTransactionReceipt({ hash })).blockHash).toBe(receipt.blockHash);
        await node.mine(2);
        const result = await indexOnce(again.rpcUrl);
        expect(result).toMatchObject({ reorgDepth: 0, recheck: [] });
        expect(result.halted).toBeUndefined();
        expect((await db.payment.findFirstOrThrow({ where: { depositAddress: null, txHash: hash.toLowerCase() } })).status).toBe('COUNTED');
      } finally {
        await again.stop();
      }
    }
  });

  it('starts a new chain when its saved state is gone, and then recreates the database instead of keeping it', async () => {
    await rm(path.join(dir, 'anvil-state.json'));
    const fresh = await startDevChain({ dir, databaseUrl: database.url, log: (m) => log.push(m) });
    try {
      expect(fresh.databaseReset).toBe(true);
      expect(log.at(-1)).toMatch(/^the local chain is new \(no saved state at .*anvil-state.json\): the database, whose payments were made on the old chain, is recreated$/);
      expect(await db.payment.count()).toBe(0);
      expect(await db.chainCursor.count()).toBe(0);
    } finally {
      await fresh.stop();
    }
  });

  it('sets aside a saved state that has no genesis timestamp beside it (written before it was kept): a new chain, and the database is recreated', async () => {
    const before = await startDevChain({ dir, databaseUrl: database.url, log: (m) => log.push(m) });
    try {
      await anvilDriver(before.rpcUrl).mine(1);
      await indexOnce(before.rpcUrl);
    } finally {
      await before.stop();
    }
    expect(await db.chainCursor.count()).toBe(1);
    await rm(path.join(dir, 'genesis.json'));
    const fresh = await startDevChain({ dir, databaseUrl: database.url, log: (m) => log.push(m) });
    try {
      expect(fresh.databaseReset).toBe(true);
      expect(log.at(-1)).toMatch(/^the local chain is new \(no genesis timestamp saved at .*genesis\.json beside its state\): the database, whose payments were made on the old chain, is recreated$/);
      expect(await db.chainCursor.count()).toBe(0);
      expect(await anvilDriver(fresh.rpcUrl).wallet.getBlockNumber()).toBe(0n);
    } finally {
      await fresh.stop();
    }
  });

  it('takes a node that started without its saved state for a new chain, even when its genesis block hashes the same as the old one (two nodes started in the same second)', () => {
    const genesisHash = `0x${'ab'.repeat(32)}`;
    expect(chainChanged({ genesisHash }, { genesisHash, stateKept: false })).toBe(true);
    expect(chainChanged({ genesisHash }, { genesisHash, stateKept: true })).toBe(false);
    expect(chainChanged({ genesisHash }, { genesisHash: `0x${'cd'.repeat(32)}`, stateKept: true })).toBe(true);
    // A checkpoint from before genesis hashes were recorded, beside the node's saved chain.
    expect(chainChanged({ genesisHash: null }, { genesisHash, stateKept: true })).toBe(false);
    expect(chainChanged(null, { genesisHash, stateKept: false })).toBe(false);
  });
});

describe('the clock of a chain pinned to its genesis', () => {
  it('is set to now on start, so a block mined after a restart (and a price stamped by it) is not hours old', async () => {
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 7200;
    const anvil = await startAnvil({ genesisTimestamp: twoHoursAgo });
    try {
      const node = anvilDriver(anvil.rpcUrl);
      await node.mine(1);
      expect(Number((await node.wallet.getBlock()).timestamp)).toBeLessThan(twoHoursAgo + 600);
      await catchUpClock(anvil.rpcUrl);
      await node.mine(1);
      expect(Math.abs(Number((await node.wallet.getBlock()).timestamp) - Date.now() / 1000)).toBeLessThan(60);
    } finally {
      await anvil.stop();
    }
  });
});
