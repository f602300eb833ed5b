import { keccak256, type Address, type PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import { isNodeFailure } from '../chain/errors.ts';
import { depositFactoryAbi } from './abi.ts';
import { forwarderOf, proxyInitCode } from './addresses.ts';

/**
 * Why the configured factory must not be used, or null: it must pay the receiving address,
 * and deploy the proxies the shop computes deposit addresses for (the check
 * `npm run deposits:deploy` and `npm start` make, made again before any money moves).
 */
export async function factoryProblem(deps: { config: Pick<AppConfig, 'depositFactoryAddress' | 'receivingAddress'>; chain: PublicClient }): Promise<string | null> {
  const factory = deps.config.depositFactoryAddress;
  if (!factory) return 'no deposit factory is configured';
  const read = (functionName: 'receiver' | 'forwarder' | 'proxyCodeHash') => deps.chain.readContract({ address: factory, abi: depositFactoryAbi, functionName }) as Promise<string>;
  let receiver: string, forwarder: string, codeHash: string;
  try {
    [receiver, forwarder, codeHash] = await Promise.all([read('receiver'), read('forwarder'), read('proxyCodeHash')]);
  } catch (err) {
    // The node failing is retried; a contract that does not answer these calls is no factory of ours.
    if (isNodeFailure(err)) throw err;
    return `no deposit factory answers at ${factory}`;
  }
  if (receiver.toLowerCase() !== deps.config.receivingAddress.toLowerCase()) return `the deposit factory ${factory} pays ${receiver}, not the receiving address ${deps.config.receivingAddress}`;
  if (forwarder.toLowerCase() !== forwarderOf(factory).toLowerCase() || codeHash !== keccak256(proxyInitCode(forwarder as Address))) {
    return `the deposit factory ${factory} deploys other proxies than the shop computes deposit addresses for`;
  }
  return null;
}
