import { encodeFunctionData, formatUnits, getAddress, isAddress, parseAbi, type Address, type Hash, type PublicClient } from 'viem';
import { MAINNET_TOKENS } from '../contract/tokens.ts';
import type { AppConfig } from '../infra/config.ts';
import type { Db } from '../infra/db.ts';
import { isPayable } from '../payments/order-states.ts';
import { depositFactoryAbi } from '../deposits/abi.ts';
import { depositAddressOf, depositSalt } from '../deposits/addresses.ts';
import { sweepingOffReason } from './sweeper-status.ts';
import { factoryProblem } from '../deposits/factory-check.ts';
import { gasWallet } from './sweeper-wallet.ts';

/**
 * Recovering an ERC-20 token sent to an order's deposit address by mistake
 * (`npm run deposits:recover-token -- <orderId> <tokenAddress>`): the factory's
 * recoverToken(salt, token), from the sweeper's gas wallet, which sends the address's whole
 * balance of that token to the receiving address (the only place it can go). Like a sweep,
 * it deploys the address's proxy, so it waits until the order is no longer being paid. Only an
 * operator names the token: a hostile token's code runs in that call, against nobody but
 * the caller's gas. Nothing is sent when the address holds none of it. An accepted token
 * with payments recorded at the address is refused: the deposit sweeper sweeps it and marks
 * them (token-sweeps.ts); moved by hand, the books would hold them there still.
 */
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

export type TokenRecovery = {
  depositAddress: Address;
  receiver: Address;
  token: Address;
  /** What the deposit address held (0: nothing was sent). */
  amount: bigint;
  txHash: Hash | null;
  status: 'success' | 'reverted' | 'nothing-to-recover';
  gasUsed: bigint | null;
  /** The receiving address's balance of the token before and after. */
  receiverBefore: bigint;
  receiverAfter: bigint;
};

type Deps = { config: AppConfig; db: Db; chain: PublicClient };

export async function recoverDepositToken(deps: Deps, orderId: string, tokenAddress: string): Promise<TokenRecovery> {
  const { config, chain } = deps;
  const off = sweepingOffReason(config);
  const wallet = gasWallet(deps);
  if (off || !wallet) throw new Error(off ?? 'Sweeping is off');
  if (!isAddress(tokenAddress)) throw new Error(`${tokenAddress} is not a token address`);
  const problem = await factoryProblem(deps);
  if (problem) throw new Error(`Refused: ${problem}`);
  const order = await deps.db.order.findUnique({ where: { id: orderId }, select: { depositAddress: true, status: true } });
  if (!order) throw new Error(`No order ${orderId}`);
  // Recovering deploys the address's proxy: a plain 21,000-gas transfer to it would then fail (as after a sweep).
  if (isPayable(order.status)) throw new Error(`Order ${orderId} is still being paid (${order.status}): recover its token once it is settled`);
  const factory = config.depositFactoryAddress as Address;
  const depositAddress = getAddress(depositAddressOf(factory, orderId));
  if (order.depositAddress?.toLowerCase() !== depositAddress.toLowerCase()) throw new Error(`Order ${orderId} has no deposit address of the factory ${factory}`);
  const token = getAddress(tokenAddress);
  const accepted = await acceptedTokenRecorded(deps, depositAddress, token);
  if (accepted) throw new Error(`Order ${orderId} has ${accepted.held} recorded at its deposit address: ${accepted.symbol} is accepted, and the deposit sweeper sweeps it (its payments marked swept)`);
  const receiver = getAddress(config.receivingAddress);
  const balanceOf = (owner: Address) => chain.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [owner] });
  const [amount, receiverBefore] = await Promise.all([balanceOf(depositAddress), balanceOf(receiver)]);
  const base = { depositAddress, receiver, token, amount, receiverBefore };
  if (amount === 0n) return { ...base, txHash: null, status: 'nothing-to-recover', gasUsed: null, receiverAfter: receiverBefore };

  const data = encodeFunctionData({ abi: depositFactoryAbi, functionName: 'recoverToken', args: [depositSalt(orderId), token] });
  const [estimate, fees, nonce] = await Promise.all([
    chain.estimateGas({ account: wallet.address, to: factory, data }),
    chain.estimateFeesPerGas(),
    chain.getTransactionCount({ address: wallet.address, blockTag: 'pending' }),
  ]);
  const { hash } = await wallet.send({ data, gas: (estimate * 12n) / 10n, ...fees, nonce }, async () => true);
  const receipt = await chain.waitForTransactionReceipt({ hash, pollingInterval: 1_000, timeout: 10 * 60_000 });
  return { ...base, txHash: hash, status: receipt.status, gasUsed: receipt.gasUsed, receiverAfter: await balanceOf(receiver) };
}

/** An accepted token's unswept payments at the address, what they add up to ("9 USDT"), or null: the sweeper's to sweep. */
async function acceptedTokenRecorded(deps: Deps, depositAddress: Address, token: Address): Promise<{ symbol: string; held: string } | null> {
  const entry = MAINNET_TOKENS.find((t) => t.address.toLowerCase() === token.toLowerCase());
  if (!entry || !deps.config.acceptedAssets.includes(entry.symbol)) return null;
  const [row] = await deps.db.$queryRaw<{ sum: string | null }[]>`
    SELECT SUM("amount" - "flushedEarly")::text AS sum FROM "Payment"
    WHERE "depositAddress" = ${depositAddress.toLowerCase()} AND "asset"::text = ${entry.symbol} AND "sweepId" IS NULL AND "status" <> 'REJECTED'`;
  return row?.sum ? { symbol: entry.symbol, held: `${formatUnits(BigInt(row.sum), entry.decimals)} ${entry.symbol}` } : null;
}
