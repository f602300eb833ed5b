import { encodeFunctionData, formatEther, formatGwei, keccak256, numberToHex, type Address, type Hash, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { AppConfig } from '../infra/config.ts';
import { formatEth } from '../contract/money.ts';
import { MULTICALL3_ADDRESS, multicall3Abi } from '../chain/multicall3.ts';

/**
 * The sweeper's gas wallet: the account that pays for sweeps and token recoveries. Its
 * only destination is the deposit factory (`send` takes no address; a token sweep's batch
 * of factory calls goes through Multicall3, which calls the factory), and the factory
 * moves money only to the receiving address it was deployed with, which `factoryProblem`
 * checks before anything is sent.
 *
 * Two kinds: a key held here (SWEEPER_PRIVATE_KEY), signed locally, so the hash is known
 * before the broadcast and the sweep's row is written first (a crash leaves a row to
 * follow, never a transaction nobody knows of); or an external signer behind the node
 * (SWEEPER_ADDRESS, eth_sendTransaction), where the row can only be written after the
 * signer returns the hash: a crash in between leaves a sweep the next run finds on chain
 * by its Flushed events and adopts (sweeper-adopt.ts).
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
  if (!factory || !config.sweeperAddress) return null;
  const address = config.sweeperAddress as Address;
  const fields = (call: FactoryCall) => ({ ...factoryTransaction(factory as Address, call.data), value: 0n, gas: call.gas, maxFeePerGas: call.maxFeePerGas, maxPriorityFeePerGas: call.maxPriorityFeePerGas, nonce: call.nonce });
  const key = config.sweeperPrivateKey;
  if (key) {
    const account = privateKeyToAccount(key);
    return {
      address,
      kind: 'key',
      async send(call, record) {
        const signed = await account.signTransaction({ type: 'eip1559', chainId: config.chainId, ...fields(call) });
        const hash = keccak256(signed);
        if (!(await record(hash))) return { hash, broadcast: false };
        await chain.request({ method: 'eth_sendRawTransaction', params: [signed] }).catch((err: unknown) => {
          // Sent before (a retry): the node has it, which is all a broadcast is for.
          if (!/already known|known transaction/i.test(errorText(err))) throw err;
        });
        return { hash, broadcast: true };
      },
    };
  }
  return {
    address,
    kind: 'signer',
    async send(call, record) {
      const tx = fields(call);
      const request = {
        from: address,
        to: tx.to,
        data: tx.data,
        value: '0x0',
        type: '0x2',
        chainId: numberToHex(config.chainId),
        gas: numberToHex(tx.gas),
        maxFeePerGas: numberToHex(tx.maxFeePerGas),
        maxPriorityFeePerGas: numberToHex(tx.maxPriorityFeePerGas),
        nonce: numberToHex(tx.nonce),
      };
      const hash = (await (chain.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({ method: 'eth_sendTransaction', params: [request] })) as Hash;
      if (!/^0x[0-9a-fA-F]{64}$/.test(String(hash))) throw new Error(`the external signer answered ${JSON.stringify(hash)}, not a transaction hash`);
      await record(hash.toLowerCase() as Hash);
      return { hash: hash.toLowerCase() as Hash, broadcast: true };
    },
  };
}

/** The transaction's destination and data for `data`: the factory itself, or Multicall3 calling the factory once for each. */
export function factoryTransaction(factory: Address, data: Hex | Hex[]): { to: Address; data: Hex } {
  if (!Array.isArray(data)) return { to: factory, data };
  const calls = data.map((callData) => ({ target: factory, allowFailure: false, callData }));
  return { to: MULTICALL3_ADDRESS, data: encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }) };
}

/** A node's refusal that will not change on a retry: the transaction never entered a mempool. */
export function refusedForGood(err: unknown): boolean {
  return /nonce too low|insufficient funds|underpriced|intrinsic gas too low|exceeds block gas limit|fee cap less than block base fee|max fee per gas less than block base fee/i.test(errorText(err));
}

function errorText(err: unknown): string {
  const e = err as { message?: string; details?: string; shortMessage?: string; cause?: { message?: string; details?: string } };
  return `${e?.shortMessage ?? ''} ${e?.message ?? ''} ${e?.details ?? ''} ${e?.cause?.message ?? ''} ${e?.cause?.details ?? ''}`;
}

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
