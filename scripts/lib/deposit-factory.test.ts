import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createPublicClient, getAddress, http, type Address, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANVIL_ACCOUNTS, anvilDriver } from '../testing/chain.ts';
import { startAnvil, type AnvilInstance } from './anvil.ts';
import { factoryProblem } from '../../core/src/deposits/factory-check.ts';
import { ensureDevDepositFactory } from './deposit-factory.ts';
import { REPO_ROOT } from './paths.ts';

const run = promisify(execFile);
/** Anvil's first dev account's well-known key (the node's default mnemonic). */
const ANVIL_KEY_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const RECEIVER = ANVIL_ACCOUNTS[1];

let anvil: AnvilInstance;
let dir: string;
beforeAll(async () => {
  anvil = await startAnvil();
  dir = mkdtempSync(path.join(tmpdir(), 'deposit-factory-'));
});
afterAll(async () => {
  await anvil?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const deployScript = (env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/deploy-deposit-factory.ts'], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env } });

describe('deploying the deposit factory', () => {
  it('`npm run deposits:deploy` deploys it for the receiving address and prints what to configure', async () => {
    const { stdout } = await deployScript({ ETH_RPC_URL: anvil.rpcUrl, RECEIVING_ADDRESS: RECEIVER, DEPLOYER_PRIVATE_KEY: ANVIL_KEY_0 });
    const address = /DEPOSIT_FACTORY_ADDRESS=(0x[0-9a-fA-F]{40})/.exec(stdout)?.[1] as Address | undefined;
    expect(address, stdout).toBeDefined();
    expect(stdout).toMatch(/\(transaction 0x[0-9a-f]{64}, \d+ gas\)/);
    const chain = createPublicClient({ transport: http(anvil.rpcUrl) }) as PublicClient;
    const problemFor = (receivingAddress: Address) => factoryProblem({ config: { depositFactoryAddress: address!, receivingAddress }, chain });
    expect(await problemFor(RECEIVER)).toBeNull();
    // A factory for another address is not this shop's.
    expect(await problemFor(ANVIL_ACCOUNTS[2])).toBe(`the deposit factory ${getAddress(address!)} was deployed for the receiving address ${getAddress(RECEIVER)}, not ${getAddress(ANVIL_ACCOUNTS[2])}`);
  });

  it('says what is missing instead of failing later', async () => {
    const failed = await deployScript({ ETH_RPC_URL: anvil.rpcUrl, RECEIVING_ADDRESS: 'nope' }).then(() => null, (err: { stderr: string; code: number }) => err);
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('Set RECEIVING_ADDRESS (the address every deposit is swept to), DEPLOYER_PRIVATE_KEY');
  });

  it('on the local chain, is deployed once and kept across restarts; a new chain or another receiving address gets a new one', async () => {
    const statePath = path.join(dir, 'deposit-factory.json');
    const first = await ensureDevDepositFactory({ rpcUrl: anvil.rpcUrl, from: ANVIL_ACCOUNTS[0], receiver: RECEIVER, statePath });
    expect(first.deployed).toBe(true);
    expect(await ensureDevDepositFactory({ rpcUrl: anvil.rpcUrl, from: ANVIL_ACCOUNTS[0], receiver: RECEIVER, statePath })).toEqual({ address: first.address, deployed: false });
    const other = await ensureDevDepositFactory({ rpcUrl: anvil.rpcUrl, from: ANVIL_ACCOUNTS[0], receiver: ANVIL_ACCOUNTS[3], statePath });
    expect(other.deployed).toBe(true);
    expect(other.address).not.toBe(first.address);
    // The chain it was deployed on is gone (its code with it): deployed again.
    await anvilDriver(anvil.rpcUrl).setCode(other.address, '0x');
    expect((await ensureDevDepositFactory({ rpcUrl: anvil.rpcUrl, from: ANVIL_ACCOUNTS[0], receiver: ANVIL_ACCOUNTS[3], statePath })).deployed).toBe(true);
  });
});
