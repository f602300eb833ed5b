import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { encodeFunctionData, getAddress, keccak256, parseEther, type Abi, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factoryBytecodeModule, FACTORY_BYTECODE_FILE, FACTORY_SOURCE } from '../../../scripts/build-contracts.ts';
import { startAnvil, type AnvilInstance } from '../../../scripts/lib/anvil.ts';
import { REPO_ROOT } from '../../../scripts/lib/paths.ts';
import { compileSolidity } from '../../../scripts/lib/solidity.ts';
import { ANVIL_ACCOUNTS, anvilDriver } from '../../../scripts/testing/chain.ts';
import { depositFactoryAbi, depositForwarderAbi } from './abi.ts';
import { depositAddresses, depositSalt, forwarderOf, proxyInitCode } from './addresses.ts';
import { DEPOSIT_FACTORY_BYTECODE } from './factory-bytecode.ts';

/**
 * The deposit factory and forwarder (DepositFactory.sol) on anvil: the address the shop
 * computes is the one the factory deploys; a sweep moves everything, and only to the
 * receiving address, whoever sends it; ETH arriving after a sweep waits for the next;
 * tokens sent by mistake are recovered to the receiving address.
 */
const [deployer, buyer, sweeper, stranger] = [ANVIL_ACCOUNTS[0], ANVIL_ACCOUNTS[1], ANVIL_ACCOUNTS[2], ANVIL_ACCOUNTS[3]];
const RECEIVER = '0x00000000000000000000000000000000005a1e51' as Address;

let anvil: AnvilInstance;
let chain: ReturnType<typeof anvilDriver>;
let factory: Address;
let addresses: ReturnType<typeof depositAddresses>;

async function mined(hash: Hash) {
  const receipt = await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  expect(receipt.status).toBe('success');
  return receipt;
}
const balance = (address: Address) => chain.wallet.getBalance({ address });
const sweep = async (from: Address, orderIds: string[]) =>
  mined(await chain.wallet.writeContract({ address: factory, abi: depositFactoryAbi, functionName: 'sweep', args: [orderIds.map(depositSalt)], account: from, chain: null }));

beforeAll(async () => {
  anvil = await startAnvil();
  chain = anvilDriver(anvil.rpcUrl);
  const hash = await chain.wallet.deployContract({ abi: depositFactoryAbi, bytecode: DEPOSIT_FACTORY_BYTECODE, args: [RECEIVER], account: deployer, chain: null });
  factory = (await mined(hash)).contractAddress as Address;
  addresses = depositAddresses(factory);
  // The shop's receiving address exists (has ETH): a first transfer to it pays no new-account gas.
  await mined(await chain.send(deployer, RECEIVER, 1n));
});

afterAll(async () => {
  await anvil?.stop();
});

describe('the deposit factory', () => {
  it('is built from its source: the committed bytecode and the ABI the shop calls are what DepositFactory.sol compiles to', async () => {
    expect(await readFile(FACTORY_BYTECODE_FILE, 'utf8'), 'run npm run contracts:build').toBe(await factoryBytecodeModule());
    const compiled = await compileSolidity(FACTORY_SOURCE, 'DepositFactory');
    // The calls and events (not the constructor or receive, which the shop never calls by name).
    const names = (abi: Abi) => abi.flatMap((e) => (e.type === 'function' || e.type === 'event' ? [`${e.type} ${e.name}`] : [])).sort();
    expect(names(depositFactoryAbi as unknown as Abi)).toEqual(names(compiled.abi));
    const forwarder = await compileSolidity(path.join(REPO_ROOT, 'core/src/deposits/DepositFactory.sol'), 'DepositForwarder');
    expect(names(depositForwarderAbi as unknown as Abi)).toEqual(names(forwarder.abi));
  });

  it("gives each order the address the shop computes, before anything is deployed there", async () => {
    const read = (functionName: 'forwarder' | 'receiver') => chain.wallet.readContract({ address: factory, abi: depositFactoryAbi, functionName });
    expect(await read('forwarder')).toBe(getAddress(forwarderOf(factory)));
    expect(await read('receiver')).toBe(getAddress(RECEIVER));
    expect(await chain.wallet.readContract({ address: factory, abi: depositFactoryAbi, functionName: 'proxyCodeHash' })).toBe(keccak256(proxyInitCode(forwarderOf(factory))));
    for (const orderId of ['7f0c7c55-3d5b-4f7e-9a52-1f0f8f6b2a10', '0b9d7f0e-0000-4000-8000-000000000001']) {
      const onChain = await chain.wallet.readContract({ address: factory, abi: depositFactoryAbi, functionName: 'depositAddress', args: [depositSalt(orderId)] });
      expect(onChain.toLowerCase()).toBe(addresses.of(orderId));
      expect(await chain.wallet.getCode({ address: onChain })).toBeUndefined();
    }
    expect(addresses.of('7f0c7c55-3d5b-4f7e-9a52-1f0f8f6b2a10')).not.toBe(addresses.of('0b9d7f0e-0000-4000-8000-000000000001'));
  });

  it('sweeps a deposit to the receiving address, whoever sends the sweep, in one transaction that deploys and flushes', async () => {
    const orderId = '11111111-1111-4111-8111-111111111111';
    const deposit = addresses.of(orderId);
    await mined(await chain.send(buyer, deposit, parseEther('0.25')));
    const before = await balance(RECEIVER);
    const receipt = await sweep(stranger, [orderId]);
    expect(await balance(RECEIVER)).toBe(before + parseEther('0.25'));
    expect(await balance(deposit)).toBe(0n);
    expect(await chain.wallet.getCode({ address: deposit })).toMatch(/^0x363d3d373d3d3d363d73/);
    console.log(`[deposits] deploy and flush one deposit: ${receipt.gasUsed} gas`);

    // ETH arriving after the sweep (a top-up) waits at the deployed address for the next one.
    await mined(await chain.send(buyer, deposit, parseEther('0.01')));
    expect(await balance(deposit)).toBe(parseEther('0.01'));
    const again = await sweep(sweeper, [orderId]);
    expect(await balance(deposit)).toBe(0n);
    expect(await balance(RECEIVER)).toBe(before + parseEther('0.26'));
    console.log(`[deposits] flush an address deployed before: ${again.gasUsed} gas`);

    // Calling the deployed address, or the forwarder behind every proxy, sends nothing anywhere but the receiving address.
    const flush = encodeFunctionData({ abi: depositForwarderAbi, functionName: 'flush' });
    await mined(await chain.send(buyer, deposit, parseEther('0.02')));
    await mined(await chain.wallet.sendTransaction({ account: stranger, to: deposit, data: flush, chain: null }));
    const forwarder = forwarderOf(factory);
    await mined(await chain.send(buyer, forwarder, parseEther('0.03')));
    await mined(await chain.wallet.sendTransaction({ account: stranger, to: forwarder, data: flush, chain: null }));
    expect(await balance(RECEIVER)).toBe(before + parseEther('0.31'));
    expect(await balance(forwarder)).toBe(0n);
  });

  it('takes a top-up after its sweep only with more gas than a plain transfer: one sent with 21,000 fails and the ETH stays with its sender', async () => {
    const orderId = '77777777-7777-4777-8777-777777777777';
    const deposit = addresses.of(orderId);
    await mined(await chain.send(buyer, deposit, parseEther('0.01')));
    await sweep(sweeper, [orderId]);
    const hash = await chain.send(buyer, deposit, parseEther('0.01'), { gas: 21_000n });
    expect((await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('reverted');
    expect(await balance(deposit)).toBe(0n);
    const enough = await mined(await chain.send(buyer, deposit, parseEther('0.01')));
    expect(await balance(deposit)).toBe(parseEther('0.01'));
    console.log(`[deposits] a top-up to an address swept before: ${enough.gasUsed} gas`);
  });

  it('cannot be deployed without a receiving address', async () => {
    const hash = await chain.wallet.deployContract({ abi: depositFactoryAbi, bytecode: DEPOSIT_FACTORY_BYTECODE, args: ['0x0000000000000000000000000000000000000000'], account: deployer, chain: null, gas: 3_000_000n });
    const receipt = await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe('reverted');
    expect(receipt.contractAddress ? await chain.wallet.getCode({ address: receipt.contractAddress }) : undefined).toBeUndefined();
  });

  it('sweeps several orders in one batch, skipping an empty address (not deployed)', async () => {
    const ids = ['22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444'];
    await mined(await chain.send(buyer, addresses.of(ids[0]!), parseEther('0.1')));
    await mined(await chain.send(buyer, addresses.of(ids[1]!), parseEther('0.2')));
    const before = await balance(RECEIVER);
    const receipt = await sweep(sweeper, ids);
    expect(await balance(RECEIVER)).toBe(before + parseEther('0.3'));
    for (const id of ids) expect(await balance(addresses.of(id))).toBe(0n);
    expect(await chain.wallet.getCode({ address: addresses.of(ids[2]!) })).toBeUndefined();
    console.log(`[deposits] deploy and flush three deposits (one empty) in one batch: ${receipt.gasUsed} gas`);
  });

  it('recovers a token sent to a deposit address by mistake to the receiving address, a token whose transfer returns nothing too', async () => {
    const { abi, bytecode } = await compileSolidity(path.join(REPO_ROOT, 'scripts/testing/test-token.sol'), 'TestToken');
    for (const quiet of [false, true]) {
      const token = (await mined(await chain.wallet.deployContract({ abi, bytecode, args: [1_000_000n, quiet], account: buyer, chain: null }))).contractAddress as Address;
      const orderId = quiet ? '55555555-5555-4555-8555-555555555555' : '66666666-6666-4666-8666-666666666666';
      const deposit = addresses.of(orderId);
      await mined(await chain.wallet.writeContract({ address: token, abi, functionName: 'transfer', args: [deposit, 1234n], account: buyer, chain: null }));
      await mined(await chain.wallet.writeContract({ address: factory, abi: depositFactoryAbi, functionName: 'recoverToken', args: [depositSalt(orderId), token], account: stranger, chain: null }));
      const tokenBalance = (owner: Address) => chain.wallet.readContract({ address: token, abi, functionName: 'balanceOf', args: [owner] }) as Promise<bigint>;
      expect(await tokenBalance(RECEIVER)).toBe(1234n);
      expect(await tokenBalance(deposit)).toBe(0n);
    }
  });
});
