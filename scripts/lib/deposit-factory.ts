import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createPublicClient, createWalletClient, getAddress, http, type Account, type Address, type Hash, type PublicClient } from 'viem';
import { depositFactoryAbi } from '../../core/src/deposits/abi.ts';
import { DEPOSIT_FACTORY_BYTECODE } from '../../core/src/deposits/factory-bytecode.ts';
import { factoryProblem } from '../../core/src/deposits/factory-check.ts';

/**
 * Deploying the deposit factory (core/src/deposits/DepositFactory.sol) for a receiving
 * address, once per shop: `npm run deposits:deploy` on mainnet, and `npm start` on its
 * local chain. Checked after the deployment by the shop's one check (factory-check.ts):
 * its code and its forwarder's are what DepositFactory.sol deploys for that address.
 */
export type DeployedFactory = { address: Address; txHash: Hash; gasUsed: bigint };

export async function deployDepositFactory(opts: { rpcUrl: string; account: Account | Address; receiver: Address }): Promise<DeployedFactory> {
  const transport = http(opts.rpcUrl);
  const reader = createPublicClient({ transport });
  const chainId = await reader.getChainId();
  const writer = createWalletClient({ transport, account: opts.account, chain: { id: chainId, name: 'shop', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [opts.rpcUrl] } } } });
  const txHash = await writer.deployContract({ abi: depositFactoryAbi, bytecode: DEPOSIT_FACTORY_BYTECODE, args: [getAddress(opts.receiver)] });
  const receipt = await reader.waitForTransactionReceipt({ hash: txHash, pollingInterval: 200 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`the deployment ${txHash} failed`);
  const address = getAddress(receipt.contractAddress);
  await expectShopFactory(reader as PublicClient, address, opts.receiver);
  return { address, txHash, gasUsed: receipt.gasUsed };
}

/** Throws, saying why, unless `address` holds the shop's deposit factory for `receiver` (factoryProblem). */
async function expectShopFactory(chain: PublicClient, address: Address, receiver: Address): Promise<void> {
  const problem = await factoryProblem({ config: { depositFactoryAddress: address, receivingAddress: receiver }, chain });
  if (problem) throw new Error(problem);
}

/**
 * The local chain's factory: deployed once from an unlocked dev account and remembered in
 * `statePath` beside the chain, so a restarted shop keeps its orders' deposit addresses.
 */
export async function ensureDevDepositFactory(opts: { rpcUrl: string; from: Address; receiver: Address; statePath: string }): Promise<{ address: Address; deployed: boolean }> {
  if (existsSync(opts.statePath)) {
    const kept = JSON.parse(readFileSync(opts.statePath, 'utf8')) as { address?: string; receiver?: string };
    if (kept.address && kept.receiver?.toLowerCase() === opts.receiver.toLowerCase()) {
      const chain = createPublicClient({ transport: http(opts.rpcUrl) }) as PublicClient;
      const ok = await expectShopFactory(chain, kept.address as Address, opts.receiver).then(() => true, () => false);
      if (ok) return { address: getAddress(kept.address), deployed: false };
    }
  }
  const { address } = await deployDepositFactory({ rpcUrl: opts.rpcUrl, account: opts.from, receiver: opts.receiver });
  writeFileSync(opts.statePath, `${JSON.stringify({ address, receiver: opts.receiver }, null, 2)}\n`);
  return { address, deployed: true };
}
