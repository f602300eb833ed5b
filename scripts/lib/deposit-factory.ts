import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createPublicClient, createWalletClient, getAddress, http, keccak256, type Account, type Address, type Hash } from 'viem';
import { depositFactoryAbi } from '../../core/src/deposits/abi.ts';
import { forwarderOf, proxyInitCode } from '../../core/src/deposits/addresses.ts';
import { DEPOSIT_FACTORY_BYTECODE } from '../../core/src/deposits/factory-bytecode.ts';

/**
 * Deploying the deposit factory (core/src/deposits/DepositFactory.sol) for a receiving
 * address, once per shop: `npm run deposits:deploy` on mainnet, and `npm start` on its
 * local chain. Checked after the deployment: the factory pays the receiving address it
 * was given, and its forwarder is where the shop computes it.
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
  await checkDepositFactory(opts.rpcUrl, address, opts.receiver);
  return { address, txHash, gasUsed: receipt.gasUsed };
}

/**
 * Throws unless `address` holds a deposit factory paying `receiver` whose forwarder and
 * proxy code are where and what the shop computes (so every deposit address it hands out
 * is one this factory deploys).
 */
export async function checkDepositFactory(rpcUrl: string, address: Address, receiver: Address): Promise<void> {
  const reader = createPublicClient({ transport: http(rpcUrl) });
  const [paysTo, forwarder, codeHash] = await Promise.all([
    reader.readContract({ address, abi: depositFactoryAbi, functionName: 'receiver' }),
    reader.readContract({ address, abi: depositFactoryAbi, functionName: 'forwarder' }),
    reader.readContract({ address, abi: depositFactoryAbi, functionName: 'proxyCodeHash' }),
  ]);
  if (paysTo.toLowerCase() !== receiver.toLowerCase()) throw new Error(`the deposit factory at ${address} pays ${paysTo}, not the receiving address ${receiver}`);
  if (forwarder.toLowerCase() !== forwarderOf(address).toLowerCase()) throw new Error(`the deposit factory at ${address} has its forwarder at ${forwarder}, not where the shop computes it`);
  if (codeHash !== keccak256(proxyInitCode(forwarder))) throw new Error(`the deposit factory at ${address} deploys other proxies than the shop computes`);
}

/**
 * The local chain's factory: deployed once from an unlocked dev account and remembered in
 * `statePath` beside the chain, so a restarted shop keeps its orders' deposit addresses.
 */
export async function ensureDevDepositFactory(opts: { rpcUrl: string; from: Address; receiver: Address; statePath: string }): Promise<{ address: Address; deployed: boolean }> {
  if (existsSync(opts.statePath)) {
    const kept = JSON.parse(readFileSync(opts.statePath, 'utf8')) as { address?: string; receiver?: string };
    if (kept.address && kept.receiver?.toLowerCase() === opts.receiver.toLowerCase()) {
      const ok = await checkDepositFactory(opts.rpcUrl, kept.address as Address, opts.receiver).then(() => true, () => false);
      if (ok) return { address: getAddress(kept.address), deployed: false };
    }
  }
  const { address } = await deployDepositFactory({ rpcUrl: opts.rpcUrl, account: opts.from, receiver: opts.receiver });
  writeFileSync(opts.statePath, `${JSON.stringify({ address, receiver: opts.receiver }, null, 2)}\n`);
  return { address, deployed: true };
}
