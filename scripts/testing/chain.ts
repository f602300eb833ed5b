import { createTestClient, createWalletClient, http, parseEther, publicActions, type Address, type Hash } from 'viem';
import { mainnet } from 'viem/chains';
import { ANVIL_DEV_ACCOUNTS } from '../../core/src/infra/config.ts';

/** Anvil's unlocked dev accounts (the node signs for them). */
export const ANVIL_ACCOUNTS = ANVIL_DEV_ACCOUNTS satisfies readonly Address[];

/** A client for driving anvil in tests: send from dev accounts, mine, reorg, time travel. */
export function anvilDriver(rpcUrl: string) {
  const wallet = createWalletClient({ chain: mainnet, transport: http(rpcUrl) }).extend(publicActions);
  const test = createTestClient({ chain: mainnet, mode: 'anvil', transport: http(rpcUrl) });
  return {
    wallet,
    test,
    async send(from: Address, to: Address, value: bigint, opts: { nonce?: number; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; gas?: bigint } = {}): Promise<Hash> {
      return wallet.sendTransaction({ account: from, to, value, chain: mainnet, ...opts });
    },
    async sendAndWait(from: Address, to: Address, value: bigint): Promise<Hash> {
      const hash = await wallet.sendTransaction({ account: from, to, value, chain: mainnet });
      await wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
    mine: (blocks = 1) => test.mine({ blocks }),
    setAutomine: (on: boolean) => test.setAutomine(on),
    /** Empties the mempool (transactions that were never to be mined). */
    dropAll: () => test.request({ method: 'anvil_dropAllTransactions' as never, params: [] as never }),
    reorg: (depth: number) => test.request({ method: 'anvil_reorg' as never, params: [depth, []] as never }),
    setCode: (address: Address, bytecode: `0x${string}`) => test.setCode({ address, bytecode }),
    blockNumber: () => wallet.getBlockNumber({ cacheTime: 0 }),
    parseEther,
  };
}

/**
 * How long a wait gives the state it waits for, unless it says otherwise. Generous on
 * purpose: a wait ends as soon as its state holds, so the limit costs nothing on a quiet
 * machine, and a busy one (the whole suite on two cores) takes many times longer.
 */
export const WAIT_LIMIT_MS = 60_000;

/** Polls `probe` until it returns a value (which it resolves with), at most `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = WAIT_LIMIT_MS, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
