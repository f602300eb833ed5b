import path from 'node:path';
import type { Address, Hash } from 'viem';
import { REPO_ROOT } from '../../../scripts/lib/paths.ts';
import { compileSolidity } from '../../../scripts/lib/solidity.ts';
import type { PaymentKit } from './payment-kit.ts';

/**
 * An exchange's batched withdrawal for tests (scripts/testing/batch-sender.sol): one
 * transaction from `from` paying several addresses through internal calls. `wait: false`
 * leaves it in the pool (automine off); a tip orders it within a block.
 */
export async function deployBatchSender(kit: Pick<PaymentKit, 'chain'>, from: Address) {
  const { abi, bytecode } = await compileSolidity(path.join(REPO_ROOT, 'scripts/testing/batch-sender.sol'), 'BatchSender');
  const deployed = await kit.chain.wallet.deployContract({ abi, bytecode, account: from, chain: null });
  const address = (await kit.chain.wallet.waitForTransactionReceipt({ hash: deployed, pollingInterval: 50 })).contractAddress as Address;
  return async function send(to: Address[], values: bigint[], opts: { wait?: boolean; maxPriorityFeePerGas?: bigint; maxFeePerGas?: bigint } = {}): Promise<Hash> {
    const hash = await kit.chain.wallet.writeContract({
      account: from,
      address,
      abi,
      functionName: 'send',
      args: [to, values],
      value: values.reduce((a, b) => a + b, 0n),
      chain: null,
      gas: 200_000n,
      ...(opts.maxPriorityFeePerGas ? { maxPriorityFeePerGas: opts.maxPriorityFeePerGas, maxFeePerGas: opts.maxFeePerGas ?? 100n * 10n ** 9n } : {}),
    });
    if (opts.wait !== false) await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return hash;
  };
}
