import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../db/migrate.ts';
import { adminUrlFor, databaseNameOf, quoteIdent, withClient } from '../db/postgres-admin.ts';
import { startAnvil, type AnvilInstance } from './anvil.ts';

/**
 * The local chain `npm start` runs, kept with the database it belongs to. Anvil keeps
 * its chain in `<dir>/anvil-state.json`, so a restarted shop continues the same chain
 * and paid orders stay paid. When that file is gone (a fresh clone beside a kept
 * database, a deleted `.data/`), the node starts a new chain: the database, whose
 * orders were paid on the old one, is recreated rather than kept on a chain that never
 * saw those payments. Never used for an Ethereum node the shop did not start itself.
 *
 * The chain's genesis timestamp is kept too (`<dir>/genesis.json`), and the node is
 * started with it. Anvil makes a genesis block at every start, stamped with the
 * current second unless told otherwise, and writes it into the saved state beside the
 * loaded one; which of them the next start takes for block 0 is a matter of chance. A
 * node whose genesis changed is another chain to the indexer, so an unpinned restart
 * could halt it or have the database recreated. With the timestamp pinned, every
 * start makes the same genesis block.
 */
/** Anvil's dev account #8 (0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f): a published key, the deposit sweeper's gas wallet on a local chain only. */
export const DEV_SWEEPER_PRIVATE_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97';
/** Anvil's dev account #9 (0xa0Ee7A142d267C1f36714E4a8F75612F20a79720): a published key, the relay's wallet for buyers' signed USDC payments, on a local chain only. */
export const DEV_RELAY_PRIVATE_KEY = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';

export type DevChain = AnvilInstance & { statePath: string; databaseReset: boolean };

async function genesisHash(rpcUrl: string): Promise<string> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x0', false] }),
  });
  const body = (await res.json()) as { result?: { hash?: string } };
  if (!body.result?.hash) throw new Error('the local node returned no genesis block');
  return body.result.hash;
}

async function rpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message ?? 'failed'}`);
  return body.result;
}

/**
 * A node pinned to its saved genesis timestamp (`--timestamp`) starts its clock there, so
 * on a restart its new blocks would be stamped as long ago as the first start: the price
 * feed's answer, stamped by its block, would be stale at once and the shop would refuse
 * every order. The clock is set to now (never backwards: a block already later than the
 * wall clock keeps the lead).
 */
export async function catchUpClock(rpcUrl: string, now = Math.floor(Date.now() / 1000)): Promise<void> {
  const latest = (await rpc(rpcUrl, 'eth_getBlockByNumber', ['latest', false])) as { timestamp: string };
  if (BigInt(latest.timestamp) < BigInt(now)) await rpc(rpcUrl, 'anvil_setTime', [now]);
}

/** The chain the database's indexer checkpoint was written on, if any. */
async function indexedChain(databaseUrl: string): Promise<{ genesisHash: string | null } | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ genesisHash: string | null }>(`SELECT "genesisHash" FROM "ChainCursor" LIMIT 1`);
    return rows.rows[0] ?? null;
  } finally {
    await client.end();
  }
}

/**
 * Whether the node serves another chain than the one the database's checkpoint was
 * written on. A node that started without saved state is a new chain whatever its
 * genesis hash: two nodes started in the same second have the same genesis block, but
 * the old one's later blocks, and the payments in them, are gone.
 */
export function chainChanged(checkpoint: { genesisHash: string | null } | null, node: { genesisHash: string; stateKept: boolean }): boolean {
  if (checkpoint === null) return false;
  if (!node.stateKept) return true;
  // A checkpoint from before genesis hashes were recorded, beside the node's saved chain.
  return checkpoint.genesisHash !== null && checkpoint.genesisHash !== node.genesisHash;
}

async function recreateDatabase(databaseUrl: string): Promise<void> {
  const name = databaseNameOf(databaseUrl);
  await withClient(adminUrlFor(databaseUrl), (admin) => admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
  await migrate(databaseUrl);
}

/** The saved chain's genesis timestamp (seconds), or null when there is none to trust. */
function savedGenesisTimestamp(genesisPath: string): number | null {
  try {
    const saved = JSON.parse(readFileSync(genesisPath, 'utf8')) as { timestamp?: unknown };
    return Number.isSafeInteger(saved.timestamp) && (saved.timestamp as number) > 0 ? (saved.timestamp as number) : null;
  } catch {
    return null;
  }
}

function saveGenesisTimestamp(genesisPath: string, timestamp: number): void {
  const partial = `${genesisPath}.partial`;
  writeFileSync(partial, `${JSON.stringify({ timestamp })}\n`);
  renameSync(partial, genesisPath);
}

export async function startDevChain(opts: { dir: string; port?: number; databaseUrl: string; log: (msg: string) => void }): Promise<DevChain> {
  mkdirSync(opts.dir, { recursive: true });
  const statePath = path.join(opts.dir, 'anvil-state.json');
  const genesisPath = path.join(opts.dir, 'genesis.json');
  const hasState = existsSync(statePath);
  const savedTimestamp = hasState ? savedGenesisTimestamp(genesisPath) : null;
  // A saved state without its genesis timestamp (written before it was kept) holds
  // genesis blocks from several starts: it is set aside for a new chain.
  const kept = savedTimestamp !== null;
  const genesisTimestamp = savedTimestamp ?? Math.floor(Date.now() / 1000);
  if (!kept) {
    rmSync(statePath, { force: true });
    saveGenesisTimestamp(genesisPath, genesisTimestamp);
  }
  const anvil = await startAnvil({ port: opts.port, statePath, genesisTimestamp });
  try {
    await catchUpClock(anvil.rpcUrl);
    const genesis = await genesisHash(anvil.rpcUrl);
    const indexed = await indexedChain(opts.databaseUrl);
    const otherChain = chainChanged(indexed, { genesisHash: genesis, stateKept: kept });
    if (otherChain) {
      const why = kept
        ? 'its saved state is another chain'
        : hasState
          ? `no genesis timestamp saved at ${path.relative(process.cwd(), genesisPath)} beside its state`
          : `no saved state at ${path.relative(process.cwd(), statePath)}`;
      opts.log(`the local chain is new (${why}): the database, whose payments were made on the old chain, is recreated`);
      await recreateDatabase(opts.databaseUrl);
    }
    return { ...anvil, statePath, databaseReset: otherChain };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}
