import path from 'node:path';
import type { Address } from 'viem';
import { REPO_ROOT } from '../lib/paths.ts';
import { compileSolidity } from '../lib/solidity.ts';
import { anvilDriver } from './chain.ts';

type TestTokenContract = 'TokenBatch' | 'LookAlikeToken';
const SOURCES: Record<TestTokenContract, string> = { TokenBatch: 'token-batch.sol', LookAlikeToken: 'look-alike-token.sol' };

/**
 * Deploys one of the token tests' contracts from an unlocked anvil account: TokenBatch
 * (token transfers to several addresses in one transaction, from its own balance) or
 * LookAlikeToken (emits Transfer as a token does, from another address).
 */
export async function deployTokenTestContract(rpcUrl: string, name: TestTokenContract, from: Address): Promise<{ address: Address; abi: Awaited<ReturnType<typeof compileSolidity>>['abi'] }> {
  const chain = anvilDriver(rpcUrl);
  const { abi, bytecode } = await compileSolidity(path.join(REPO_ROOT, 'scripts/testing', SOURCES[name]), name);
  const hash = await chain.wallet.deployContract({ abi, bytecode, account: from, chain: null });
  const receipt = await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`${name}'s deployment ${hash} failed`);
  return { address: receipt.contractAddress, abi };
}
