import path from 'node:path';
import type { Address } from 'viem';
import { deployDepositFactory } from '../lib/deposit-factory.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { compileSolidity } from '../lib/solidity.ts';
import { anvilDriver } from './chain.ts';

const SOURCE = path.join(REPO_ROOT, 'scripts/testing/look-alike-factory.sol');

/**
 * Deploys a look-alike deposit factory (scripts/testing/look-alike-factory.sol) on anvil,
 * from an unlocked account: it answers receiver(), forwarder() and proxyCodeHash() as the
 * shop's factory for `receiver` would, and its forwarder's flush pays `thief` while
 * emitting Flushed. `masked`: the factory's own code is the shop's genuine factory code as
 * it would be deployed at that address (found by deploying the genuine one there first,
 * then rewinding the chain), so only its forwarder gives it away.
 */
export async function deployLookAlikeFactory(rpcUrl: string, opts: { from: Address; receiver: Address; thief: Address; masked?: boolean }): Promise<Address> {
  const chain = anvilDriver(rpcUrl);
  let runtime: `0x${string}` = '0x';
  if (opts.masked) {
    const snapshot = await chain.test.snapshot();
    const genuine = await deployDepositFactory({ rpcUrl, account: opts.from, receiver: opts.receiver });
    runtime = (await chain.wallet.getCode({ address: genuine.address })) ?? '0x';
    await chain.test.revert({ id: snapshot });
  }
  const { abi, bytecode } = await compileSolidity(SOURCE, 'LookAlikeFactory');
  const hash = await chain.wallet.deployContract({ abi, bytecode, args: [opts.receiver, opts.thief, runtime], account: opts.from, chain: null });
  const receipt = await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`the look-alike factory's deployment ${hash} failed`);
  return receipt.contractAddress;
}
