import { keccak256, numberToHex, type Address, type Hash, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * A wallet the shop sends its own transactions from, with no value: the sweeper's gas
 * wallet (deposit-sweeper/sweeper-wallet.ts, which only ever calls the deposit factory)
 * and the relay's (relay/relay-wallet.ts, which only ever calls a token's
 * transferWithAuthorization). The caller chooses the destination; this sends.
 *
 * Two kinds: a key held here, signed locally, so the hash is known before the broadcast
 * and the caller's row is written first (a crash leaves a row to follow, never a
 * transaction nobody knows of), with the signed transaction to broadcast again; or an
 * external signer behind the node (eth_sendTransaction), where the row can only be
 * written after the signer returns the hash.
 */
export type OutgoingCall = { to: Address; data: Hex; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; nonce: number };

/** `raw`: the signed transaction (a key held here), to broadcast again if the node loses it. */
export type Record = (hash: Hash, raw: Hex | null) => Promise<boolean>;

export type SendingWallet = {
  address: Address;
  /** 'key': signed before it leaves (a key here, or a signer asked to sign only), its hash written first; 'signer': the signer sends, its hash known after. */
  kind: 'key' | 'signer';
  /** Sends `call`. `record(hash, raw)` writes what the caller keeps of it: before the broadcast with a key (false: not broadcast at all), after it with a signer. */
  send(call: OutgoingCall, record: Record): Promise<{ hash: Hash; broadcast: boolean }>;
};

/**
 * `signFirst`: an external signer is asked to sign only (eth_signTransaction: geth, Clef,
 * Web3Signer answer it) and the transaction is broadcast here, so its hash is written
 * before it leaves, as with a key; without it, the signer sends (eth_sendTransaction) and
 * the hash is written after.
 */
export function sendingWallet(opts: { key?: Hex | null; address: string | null; chainId: number; chain: PublicClient; signFirst?: boolean }): SendingWallet | null {
  const { chain, chainId } = opts;
  if (!opts.address) return null;
  const address = opts.address as Address;
  if (opts.key) {
    const account = privateKeyToAccount(opts.key);
    return {
      address,
      kind: 'key',
      async send(call, record) {
        const signed = await account.signTransaction({ type: 'eip1559', chainId, value: 0n, ...call });
        const hash = keccak256(signed);
        if (!(await record(hash, signed))) return { hash, broadcast: false };
        await broadcast(chain, signed);
        return { hash, broadcast: true };
      },
    };
  }
  const ask = chain.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
  return {
    address,
    kind: opts.signFirst ? 'key' : 'signer',
    async send(call, record) {
      const request = {
        from: address,
        to: call.to,
        data: call.data,
        value: '0x0',
        type: '0x2',
        chainId: numberToHex(chainId),
        gas: numberToHex(call.gas),
        maxFeePerGas: numberToHex(call.maxFeePerGas),
        maxPriorityFeePerGas: numberToHex(call.maxPriorityFeePerGas),
        nonce: numberToHex(call.nonce),
      };
      if (opts.signFirst) {
        const answer = (await ask({ method: 'eth_signTransaction', params: [request] })) as Hex | { raw?: Hex };
        const signed = typeof answer === 'string' ? answer : answer?.raw;
        if (!signed || !/^0x[0-9a-fA-F]+$/.test(signed)) throw new Error(`the external signer answered ${JSON.stringify(answer)}, not a signed transaction`);
        const hash = keccak256(signed);
        if (!(await record(hash, signed))) return { hash, broadcast: false };
        await broadcast(chain, signed);
        return { hash, broadcast: true };
      }
      const hash = (await ask({ method: 'eth_sendTransaction', params: [request] })) as Hash;
      if (!/^0x[0-9a-fA-F]{64}$/.test(String(hash))) throw new Error(`the external signer answered ${JSON.stringify(hash)}, not a transaction hash`);
      await record(hash.toLowerCase() as Hash, null);
      return { hash: hash.toLowerCase() as Hash, broadcast: true };
    },
  };
}

/** Sends a signed transaction to the node; one it has already (a retry) counts as sent. */
export async function broadcast(chain: PublicClient, signed: Hex): Promise<void> {
  await chain.request({ method: 'eth_sendRawTransaction', params: [signed] }).catch((err: unknown) => {
    if (!/already known|known transaction/i.test(errorText(err))) throw err;
  });
}

/** A node's refusal that will not change on a retry: the transaction never entered a mempool. */
export function refusedForGood(err: unknown): boolean {
  return /nonce too low|insufficient funds|underpriced|intrinsic gas too low|exceeds block gas limit|fee cap less than block base fee|max fee per gas less than block base fee/i.test(errorText(err));
}

export function errorText(err: unknown): string {
  const e = err as { message?: string; details?: string; shortMessage?: string; cause?: { message?: string; details?: string } };
  return `${e?.shortMessage ?? ''} ${e?.message ?? ''} ${e?.details ?? ''} ${e?.cause?.message ?? ''} ${e?.cause?.details ?? ''}`;
}
