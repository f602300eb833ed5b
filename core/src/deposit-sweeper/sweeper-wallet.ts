import { encodeFunctionData, formatEther, formatGwei, type Address, type Hash, type Hex, type PublicClient } from 'viem';
import { formatEth } from '../contract/money.ts';
import type { AppConfig } from '../infra/config.ts';
import { sendingWallet } from '../chain/sending-wallet.ts';
import { MULTICALL3_ADDRESS, multicall3Abi } from '../chain/multicall3.ts';

/**
 * The sweeper's gas wallet: the account that pays for sweeps and token recoveries. Its
 * only destination is the deposit factory (`send` takes no address; a token sweep's batch
 * of factory calls goes through Multicall3, which calls the factory), and the factory
 * moves money only to the receiving address it was deployed with, which `factoryProblem`
 * checks before anything is sent.
 *
 * A key held here (SWEEPER_PRIVATE_KEY) or an external signer behind the node
 * (SWEEPER_ADDRESS): chain/sending-wallet.ts. With a signer, a crash between the
 * broadcast and the row leaves a sweep the next run finds on chain by its Flushed events
 * and adopts (sweeper-adopt.ts).
 */
/**
 * `data`: one call to the factory, or several, batched through Multicall3's `aggregate3`
 * (chain/multicall3.ts), each to the factory and none allowed to fail: the wallet's
 * transactions still only ever call the factory's code, with no value.
 */
export type FactoryCall = { data: Hex | Hex[]; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; nonce: number };

export type GasWallet = {
  address: Address;
  kind: 'key' | 'signer';
  /**
   * Sends `call` to the factory. `record(hash)` writes what the caller keeps of it: before
   * the broadcast with a key (false: not broadcast at all), after it with a signer.
   */
  send(call: FactoryCall, record: (hash: Hash) => Promise<boolean>): Promise<{ hash: Hash; broadcast: boolean }>;
};

type Deps = { config: Pick<AppConfig, 'sweeperPrivateKey' | 'sweeperAddress' | 'depositFactoryAddress' | 'chainId'>; chain: PublicClient };

export function gasWallet({ config, chain }: Deps): GasWallet | null {
  const factory = config.depositFactoryAddress;
  if (!factory) return null;
  const wallet = sendingWallet({ key: config.sweeperPrivateKey, address: config.sweeperAddress, chainId: config.chainId, chain });
  if (!wallet) return null;
  return {
    address: wallet.address,
    kind: wallet.kind,
    send: (call, record) => wallet.send({ ...factoryTransaction(factory as Address, call.data), gas: call.gas, maxFeePerGas: call.maxFeePerGas, maxPriorityFeePerGas: call.maxPriorityFeePerGas, nonce: call.nonce }, (hash) => record(hash)),
  };
}

/** The transaction's destination and data for `data`: the factory itself, or Multicall3 calling the factory once for each. */
export function factoryTransaction(factory: Address, data: Hex | Hex[]): { to: Address; data: Hex } {
  if (!Array.isArray(data)) return { to: factory, data };
  const calls = data.map((callData) => ({ target: factory, allowFailure: false, callData }));
  return { to: MULTICALL3_ADDRESS, data: encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }) };
}

export { refusedForGood } from '../chain/sending-wallet.ts';

/** ETH as people read it in a reason: at most 6 decimals, no trailing zeros ("0.049"). */
export function ethText(wei: bigint): string {
  const six = formatEth(wei, 6).replace(/\.?0+$/, '');
  return six === '0' && wei > 0n ? formatEther(wei) : six;
}

/** Gwei as people read it in a reason: at most 2 decimals ("30", "1.7"). */
export function gweiText(wei: bigint): string {
  const [whole, frac = ''] = formatGwei(wei).split('.');
  const two = frac.slice(0, 2).replace(/0+$/, '');
  return two ? `${whole}.${two}` : (whole as string);
}
