import { decodeFunctionData, type Hash, type PublicClient } from 'viem';
import type { OwnSenders } from '../../chain/trace.ts';
import { readTransaction, receiptOrNull, transactionOrNull } from '../../chain/transfer-reader.ts';
import type { Token } from '../../contract/tokens.ts';
import { erc20TransferAbi } from './abi.ts';
import { transferLogOf, type TransferLog } from './logs.ts';
import type { TokenTransferReading } from './types.ts';

type Deps = { chain: PublicClient };

/** The token's Transfer logs in a transaction's receipt (none when it reverted), and the block the receipt is of. */
export async function receiptTransferLogs(chain: PublicClient, token: Token, hash: Hash): Promise<{ blockHash: string; logs: TransferLog[] } | null> {
  const receipt = await receiptOrNull(chain, hash);
  if (!receipt) return null;
  return { blockHash: receipt.blockHash, logs: receipt.logs.map((log) => transferLogOf(token.address, log)).filter((l): l is TransferLog => l !== null) };
}

/**
 * readTransaction (mined or not, confirmations, still canonical: chain/transfer-reader.ts),
 * and what the transaction's Transfer logs of `token` delivered to `address`: their sum
 * and each one (a transaction may hold several), read in the receipt that was judged (a
 * replica on another fork may serve the same transaction in another block). Logs from
 * `ownSenders` (the shop's deposit forwarders sweeping) are the shop's own money, left
 * out. With `logIndex`, that one log only (a payment is one log). A pending transaction
 * shows the amount its `transfer` call asks for, when it calls the token directly.
 */
export async function readTokenTransfer(
  deps: Deps & { ownSenders?: OwnSenders },
  token: Token,
  hash: string,
  address: string,
  opts: { logIndex?: number | null; blockHint?: bigint | null } = {},
): Promise<TokenTransferReading> {
  const { chain } = deps;
  const { logIndex } = opts;
  const reading = await readTransaction(chain, hash as Hash, { blockHint: opts.blockHint });
  if (reading.state === 'unknown' || reading.state === 'receipt-missing') return { state: reading.state };
  if (reading.state === 'pending') return { state: 'pending', ...(await pendingTransfer(chain, token, hash as Hash, reading)) };
  const { tx } = reading;
  const target = address.toLowerCase();
  const inReceipt = reading.logs.map((log) => transferLogOf(token.address, log)).filter((l): l is TransferLog => l !== null);
  const all = inReceipt.filter((l) => l.to === target && (logIndex === undefined || logIndex === null || l.logIndex === logIndex));
  const own = deps.ownSenders && all.length > 0 ? await deps.ownSenders([...new Set(all.map((l) => l.from))]) : new Set<string>();
  const logs = all.filter((l) => !own.has(l.from));
  const froms = [...new Set(logs.map((l) => l.from))];
  return {
    state: 'mined',
    transfer: {
      ...tx,
      from: logs[0]?.from ?? tx.from,
      // Tokens move from their holder's own balance: the one holder is the payer.
      payer: froms.length === 1 ? (froms[0] as string) : null,
      to: logs.length > 0 ? target : tx.to,
      valueWei: logs.reduce((sum, l) => sum + l.amount, 0n),
      internal: false,
      untraced: false,
      sender: tx.from,
      calls: logs.length,
      logs: logs.map(({ logIndex, from, amount }) => ({ logIndex, from, amount })),
    },
  };
}

async function pendingTransfer(chain: PublicClient, token: Token, hash: Hash, top: { from: string; to: string | null }): Promise<{ from: string; to: string | null; valueWei: bigint }> {
  const tx = top.to?.toLowerCase() === token.address.toLowerCase() ? await transactionOrNull(chain, hash) : null;
  if (tx) {
    try {
      const call = decodeFunctionData({ abi: erc20TransferAbi, data: tx.input });
      return { from: top.from, to: call.args[0].toLowerCase(), valueWei: call.args[1] };
    } catch {
      // Another call of the token (transferFrom, approve): its amount shows once mined.
    }
  }
  return { from: top.from, to: top.to, valueWei: 0n };
}
