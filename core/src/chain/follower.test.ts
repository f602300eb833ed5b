import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../../scripts/lib/anvil.ts';
import { ANVIL_ACCOUNTS, anvilDriver } from '../../../scripts/testing/chain.ts';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { createLogger } from '../infra/logger.ts';
import { createChainClient } from './public-client.ts';
import { followChain, type BlockReader, type FollowerDeps, type LinkedBlock } from './follower.ts';
import { resumeIndexer } from './cursor.ts';
import { isRetryable, InvalidRpcAnswer } from './errors.ts';
import { blockWithTransactions } from './rpc.ts';

/**
 * The block follower alone, on anvil: it hears blocks linked by parent hash, a reorg
 * with its depth and ancestor, blocks leaving the window as final, and knows nothing of
 * orders (its consumer here only records what it heard).
 */
let env: TestEnv;
let deps: FollowerDeps;
let chain: ReturnType<typeof anvilDriver>;
const heard: string[] = [];
const linked: LinkedBlock<number>[] = [];
// A reader that reads each block's transaction count: the follower hands on what it read.
const reader: BlockReader<number> = { begin: async () => ({ fetch: async (block) => async () => block.transactions.length }) };

const follow = () =>
  followChain(deps, reader, {
    async reorg({ ancestor, depth }) {
      heard.push(`reorg to ${ancestor} (${depth} deep)`);
    },
    async blocks(_tx, blocks) {
      linked.push(...blocks);
      heard.push(`blocks ${blocks[0]!.number}-${blocks[blocks.length - 1]!.number}`);
    },
    async finalized(_tx, below) {
      heard.push(`final below ${below}`);
    },
  });

beforeAll(async () => {
  env = await createTestEnv({ chain: true, env: { FINALITY_DEPTH: '3' } });
  chain = anvilDriver(env.anvil!.rpcUrl);
  const client = createChainClient(env.anvil!.rpcUrl);
  deps = { config: env.config, db: env.runtime.db, chain: client, logger: createLogger({ level: 'silent' }) };
});
afterAll(async () => {
  await env?.close();
});

describe('the block follower', () => {
  it('links new blocks onto its checkpoint, finds what reached the address, rewinds a reorg and names the ancestor', async () => {
    const start = await follow();
    expect(start.state).toBe('followed');
    await chain.sendAndWait(ANVIL_ACCOUNTS[3], env.config.receivingAddress as `0x${string}`, 10n ** 15n);
    await chain.mine(2);
    heard.length = 0;
    const first = await follow();
    const head = await chain.blockNumber();
    expect(first).toMatchObject({ state: 'followed', to: head, reorg: null });
    expect(heard).toEqual([`blocks ${head - 2n}-${head}`, `final below ${head - 128n}`]);
    // Each block names its parent, and the payment is in the first of them.
    const [a, b, c] = linked.slice(-3);
    expect(b!.parentHash).toBe(a!.hash);
    expect(c!.parentHash).toBe(b!.hash);
    expect(a!.transactions.map((t) => t.to?.toLowerCase())).toContain(env.config.receivingAddress.toLowerCase());
    expect(a!.read).toBe(a!.transactions.length);

    await chain.reorg(2);
    heard.length = 0;
    const after = await follow();
    expect(after).toMatchObject({ state: 'followed', reorg: { ancestor: head - 2n, depth: 2 } });
    expect(heard[0]).toBe(`reorg to ${head - 2n} (2 deep)`);
    expect(heard[1]).toBe(`blocks ${head - 1n}-${head}`);
  });

  it("keeps its blocks and checkpoint per chain: another chain's at the same heights are left alone, through a reorg too", async () => {
    const { db } = env.runtime;
    const own = env.config.chainId;
    const other = own + 1000;
    await follow();
    const head = await chain.blockNumber();
    const otherHash = (n: bigint) => `0x${'ab'.repeat(24)}${n.toString(16).padStart(16, '0')}`;
    const heights = [head - 1n, head, head + 1n, head + 2n];
    await db.chainCursor.create({ data: { chainId: other, blockNumber: head + 2n, blockHash: otherHash(head + 2n) } });
    await db.indexedBlock.createMany({ data: heights.map((n) => ({ chainId: other, number: n, hash: otherHash(n), parentHash: otherHash(n - 1n) })) });

    await chain.mine(3);
    expect(await follow()).toMatchObject({ state: 'followed', to: head + 3n });
    await chain.reorg(2);
    expect(await follow()).toMatchObject({ state: 'followed', reorg: { ancestor: head + 1n, depth: 2 } });

    // Both chains hold blocks at the same heights; the other's are as they were written.
    const ours = await db.indexedBlock.findUnique({ where: { chainId_number: { chainId: own, number: head + 2n } } });
    expect(ours?.hash).toBe((await deps.chain.getBlock({ blockNumber: head + 2n })).hash);
    const theirs = await db.indexedBlock.findMany({ where: { chainId: other }, orderBy: { number: 'asc' } });
    expect(theirs.map((b) => [b.number, b.hash])).toEqual(heights.map((n) => [n, otherHash(n)]));
    expect(await db.chainCursor.findUnique({ where: { chainId: other } })).toMatchObject({ blockNumber: head + 2n, blockHash: otherHash(head + 2n), haltedAt: null });
    expect(await db.chainCursor.findUnique({ where: { chainId: own } })).toMatchObject({ blockNumber: head + 3n });
    await db.indexedBlock.deleteMany({ where: { chainId: other } });
    await db.chainCursor.delete({ where: { chainId: other } });
  });

  it('a shop that follows one chain does not start on another when CHAIN_ID and ETH_RPC_URL both move to it (DESIGN: records the genesis hash and refuses another); an operator may resume it', async () => {
    // The shop's checkpoint on its chain, with that chain's genesis.
    await follow();
    expect(await env.runtime.db.chainCursor.findUnique({ where: { chainId: env.config.chainId } })).not.toBeNull();
    // A node of another chain (another genesis, another chain id), and a configuration that names it
    // (a staging .env deployed against the production database).
    const other = await startAnvil({ genesisTimestamp: 1_600_000_000 });
    const otherId = env.config.chainId + 2000;
    try {
      const base = createChainClient(other.rpcUrl);
      const client = new Proxy(base, {
        get(target, prop, receiver) {
          if (prop === 'getChainId') return async () => otherId;
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
      const outcome = await followChain({ ...deps, chain: client, config: { ...env.config, chainId: otherId } }, reader, { async blocks() {} });
      // Its checkpoint starts halted, saying why; nothing of that chain is read until an operator resumes it.
      expect(outcome).toMatchObject({ state: 'halted', reason: `This database follows chain ${env.config.chainId}; chain ${otherId} (CHAIN_ID and ETH_RPC_URL) is not followed until an operator resumes it.` });
      expect(await env.runtime.db.indexedBlock.count({ where: { chainId: otherId } })).toBe(0);
      expect(await resumeIndexer(env.runtime.db, otherId)).toBe(true);
      const otherDeps = { ...deps, chain: client, config: { ...env.config, chainId: otherId } };
      expect((await followChain(otherDeps, reader, { async blocks() {} })).state).not.toBe('halted');
    } finally {
      await other.stop();
      await env.runtime.db.indexedBlock.deleteMany({ where: { chainId: otherId } });
      await env.runtime.db.chainCursor.deleteMany({ where: { chainId: otherId } });
    }
  });

  it('halts for an operator on a rewind deeper than FINALITY_DEPTH, and says so from then on', async () => {
    await chain.mine(5);
    await follow();
    await chain.reorg(5);
    const halted = await follow();
    expect(halted).toMatchObject({ state: 'halted', reason: expect.stringMatching(/deeper than FINALITY_DEPTH \(3 blocks\)/) });
    expect((await follow()).state).toBe('halted');
  });
});

describe('the node answers', () => {
  let server: Server;
  let url: string;
  let answer: unknown;
  beforeAll(async () => {
    // A node that answers eth_getBlockByNumber with whatever the test sets.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: answer }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
  const sender = `0x${'1'.repeat(40)}`;

  it('are checked before anything reads them: a malformed block is a retryable InvalidRpcAnswer', async () => {
    answer = { number: '0x1', hash: 'not-a-hash', parentHash: hash(0), transactions: [] };
    const err = await blockWithTransactions(createChainClient(url, { retryCount: 0 }), 1n).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRpcAnswer);
    expect((err as Error).message).toMatch(/eth_getBlockByNumber is not valid: hash/);
    expect(isRetryable(err)).toBe(true);
  });

  it('accept what real nodes send: a contract creation without `to`, zero written as a bare 0x', async () => {
    answer = { number: '0x1', hash: hash(1), parentHash: hash(0), transactions: [{ hash: hash(2), from: sender, value: '0x' }] };
    const block = await blockWithTransactions(createChainClient(url, { retryCount: 0 }), 1n);
    expect(block.transactions).toEqual([{ hash: hash(2), from: sender, to: null, value: '0x0' }]);
  });
});
