import { hexToBigInt, hexToNumber, type Address, type Hash, type Hex, type PublicClient } from 'viem';
import { z } from 'zod';
import { InvalidRpcAnswer } from '../../chain/errors.ts';
import { parseAnswer } from '../../chain/rpc.ts';
import { TRANSFER_TOPIC } from './abi.ts';

/** One ERC-20 Transfer log: a token moved `amount` (smallest units) from `from` to `to`. Addresses lower case. */
export type TransferLog = {
  token: string;
  txHash: Hash;
  logIndex: number;
  from: string;
  to: string;
  amount: bigint;
};

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'hex') as unknown as z.ZodType<Hex>;
const word = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte word') as unknown as z.ZodType<Hash>;
const logSchema = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address'),
  topics: z.array(word),
  data: hex,
  blockHash: word.nullish(),
  transactionHash: word.nullish(),
  logIndex: hex.nullish(),
  removed: z.boolean().nullish(),
});
type RawLog = z.infer<typeof logSchema>;

const topicAddress = (topic: Hash) => `0x${topic.slice(26)}`.toLowerCase();
const addressTopic = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}` as Hash;

/**
 * An ERC-20 Transfer of `token` (the pinned contract: a look-alike emitting the same event
 * from another address is not it), or null: another event, another contract, an ERC-721
 * Transfer (four topics), a log a reorganization removed, or one not yet mined.
 */
export function transferLogOf(token: Address, log: { address: string; topics: readonly Hex[]; data: Hex; transactionHash?: Hash | null; logIndex?: number | Hex | null; removed?: boolean | null }): TransferLog | null {
  if (log.removed) return null;
  if (log.address.toLowerCase() !== token.toLowerCase()) return null;
  const [topic0, from, to] = log.topics;
  if (log.topics.length !== 3 || topic0?.toLowerCase() !== TRANSFER_TOPIC || !from || !to) return null;
  if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) return null;
  if (!log.transactionHash || log.logIndex === null || log.logIndex === undefined) return null;
  return {
    token: token.toLowerCase(),
    txHash: log.transactionHash.toLowerCase() as Hash,
    logIndex: typeof log.logIndex === 'number' ? log.logIndex : hexToNumber(log.logIndex),
    from: topicAddress(from),
    to: topicAddress(to),
    amount: hexToBigInt(log.data),
  };
}

/**
 * eth_getLogs of one block, named by its hash (EIP-234: that very block, not whichever one
 * a node behind a load balancer holds at its height): `token`'s Transfer events, to
 * `recipients` only when given (the `to` topic), else all of them. The answer is checked
 * against the shape of a log and against the block asked for.
 */
export async function transferLogsInBlock(chain: PublicClient, token: Address, blockHash: Hash, recipients?: string[]): Promise<TransferLog[]> {
  const method = 'eth_getLogs';
  const topics = recipients ? [TRANSFER_TOPIC, null, recipients.map(addressTopic)] : [TRANSFER_TOPIC];
  const answer = await chain.request({ method: method as never, params: [{ blockHash, address: token, topics }] as never });
  const logs: RawLog[] = parseAnswer(method, z.array(logSchema), answer);
  const out: TransferLog[] = [];
  for (const log of logs) {
    if (log.blockHash && log.blockHash.toLowerCase() !== blockHash.toLowerCase()) throw new InvalidRpcAnswer(method, `a log of block ${log.blockHash} for block ${blockHash}`);
    const transfer = transferLogOf(token, log);
    if (transfer) out.push(transfer);
  }
  return out;
}
