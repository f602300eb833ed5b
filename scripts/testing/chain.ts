import { createTestClient, createWalletClient, http, parseEther, publicActions, type Address, type Hash } from 'viem';
import { mainnet } from 'viem/chains';

/** Anvil's unlocked dev accounts (the node signs for them). */
export const ANVIL_ACCOUNTS = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
  '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
  '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
] as const satisfies readonly Address[];

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

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
