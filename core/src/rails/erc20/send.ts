import { encodeFunctionData, type Address, type Hex, type PublicClient } from 'viem';
import type { Token } from '../../contract/tokens.ts';
import { erc20TransferAbi, quietTransferAbi } from './abi.ts';

/** The call data of `transfer(to, amount)` (smallest units): what a wallet sends to the token's contract, with no ETH. */
export function tokenTransferData(_token: Token, to: string, amount: bigint): Hex {
  if (amount <= 0n) throw new Error('a token transfer moves a positive amount');
  return encodeFunctionData({ abi: erc20TransferAbi, functionName: 'transfer', args: [to as Address, amount] });
}

/** The transaction a wallet sends to pay `amount` of the token to `to`: to the token's contract, no value. */
export function tokenTransferRequest(token: Token, to: string, amount: bigint): { to: Address; data: Hex; value: 0n } {
  return { to: token.address, data: tokenTransferData(token, to, amount), value: 0n };
}

/**
 * Simulates `from` sending `amount` of the token to `to` (a refund, a payout, a sweep
 * before it is signed): throws with the token's reason when it would revert (a blocked
 * address, a balance too low). Decoded with an ABI that declares no outputs, since USDT's
 * `transfer` returns nothing and viem's simulateContract with the standard ERC-20 ABI
 * fails on it ("returned no data"); whether tokens moved is read from the Transfer log
 * once mined (payout.ts), never from a return value.
 */
export async function simulateTokenTransfer(chain: PublicClient, token: Token, from: string, to: string, amount: bigint): Promise<void> {
  await chain.simulateContract({ account: from as Address, address: token.address, abi: quietTransferAbi, functionName: 'transfer', args: [to as Address, amount] });
}
