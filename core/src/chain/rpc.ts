import { concatHex, decodeAbiParameters, encodeAbiParameters, hexToBigInt, numberToHex, type Hash, type Hex, type PublicClient } from 'viem';
import { z } from 'zod';
import { BALANCE_READER_BYTECODE } from './balance-reader-bytecode.ts';
import { InvalidRpcAnswer, isStateUnavailable } from './errors.ts';

/**
 * The raw RPC calls the chain layer makes itself (viem's typed actions check their own
 * answers), one helper per method, each answer checked against the shape the method
 * returns before anything reads it: a node (or a proxy in front of it) that answers
 * something else fails loudly here as InvalidRpcAnswer (retryable), not as a wrong
 * number further on.
 */

// Some nodes write zero as a bare "0x": read as 0x0.
const quantity = z
  .string()
  .regex(/^0x[0-9a-fA-F]*$/, 'a hex quantity')
  .transform((v) => (v === '0x' ? '0x0' : v)) as unknown as z.ZodType<Hex>;
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte hash') as unknown as z.ZodType<Hash>;
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address') as unknown as z.ZodType<Hex>;

/** Only what the chain layer reads of a block with its transactions: no formatting of the other fields. */
const blockSchema = z.object({
  number: quantity.nullable(),
  hash: hash.nullable(),
  parentHash: hash,
  // `to` is null (or left out, by nodes that drop null fields) for a contract creation.
  transactions: z.array(z.object({ hash, from: address, to: address.nullish(), value: quantity })),
});
export type RpcBlock = { number: bigint; hash: Hash; parentHash: Hash; transactions: { hash: Hash; from: Hex; to: Hex | null; value: Hex }[] };

/** callTracer frames (debug_trace*): nested calls. */
export type CallFrame = { type?: string | null; from?: string | null; to?: string | null; value?: Hex | null; error?: string | null; calls?: CallFrame[] | null };
const callFrameSchema: z.ZodType<CallFrame> = z.lazy(() =>
  z.object({
    type: z.string().nullish(),
    from: z.string().nullish(),
    to: z.string().nullish(),
    value: quantity.nullish(),
    error: z.string().nullish(),
    calls: z.array(callFrameSchema).nullish(),
  }),
);
const blockTracesSchema = z.array(z.object({ txHash: z.string().nullish(), result: callFrameSchema }));

/** Parity traces (trace_*): flat, each with its path in the transaction's call tree. */
const parityTraceSchema = z.object({
  type: z.string(),
  action: z.object({
    from: z.string().nullish(),
    to: z.string().nullish(),
    value: quantity.nullish(),
    callType: z.string().nullish(),
    address: z.string().nullish(),
    refundAddress: z.string().nullish(),
    balance: quantity.nullish(),
  }),
  result: z.object({ address: z.string().nullish() }).nullish(),
  error: z.string().nullish(),
  traceAddress: z.array(z.number().int().nonnegative()),
  transactionHash: z.string().nullish(),
  blockHash: z.string().nullish(),
});
export type ParityTrace = z.infer<typeof parityTraceSchema>;

/** The answer, checked against its method's shape. */
export function parseAnswer<T>(method: string, schema: z.ZodType<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidRpcAnswer(method, `${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'unexpected shape'}`);
  }
  return parsed.data;
}

const call = (chain: PublicClient, method: string, params: unknown[]) => chain.request({ method: method as never, params: params as never }) as Promise<unknown>;

/** eth_getBlockByNumber with its transactions; a block the node does not have yet is an error (retried). */
export async function blockWithTransactions(chain: PublicClient, n: bigint): Promise<RpcBlock> {
  const method = 'eth_getBlockByNumber';
  const block = parseAnswer(method, blockSchema.nullable(), await call(chain, method, [numberToHex(n), true]));
  if (!block) throw new InvalidRpcAnswer(method, `block ${n} is not available from the node`);
  if (block.hash === null || block.number === null) throw new InvalidRpcAnswer(method, 'pending block returned for a mined number');
  return { number: hexToBigInt(block.number), hash: block.hash, parentHash: block.parentHash, transactions: block.transactions.map((t) => ({ ...t, to: t.to ?? null })) };
}

/**
 * An address's balance after a block, asked by the block's hash (EIP-1898) so it is that
 * very block's state, not whichever block a node behind a load balancer holds at that
 * height. Null when the node no longer keeps that state (a pruned node); any other
 * failure (a block the node does not know, the network) is thrown.
 */
export async function balanceAfter(chain: PublicClient, address: string, blockHash: Hash): Promise<bigint | null> {
  const method = 'eth_getBalance';
  try {
    return hexToBigInt(parseAnswer(method, quantity, await call(chain, method, [address, { blockHash }])));
  } catch (err) {
    if (isStateUnavailable(err)) return null;
    throw err;
  }
}

export async function debugTraceBlock(chain: PublicClient, blockHash: string) {
  const method = 'debug_traceBlockByHash';
  return parseAnswer(method, blockTracesSchema, await call(chain, method, [blockHash, { tracer: 'callTracer' }]));
}

export async function debugTraceTransaction(chain: PublicClient, txHash: string): Promise<CallFrame> {
  const method = 'debug_traceTransaction';
  return parseAnswer(method, callFrameSchema, await call(chain, method, [txHash, { tracer: 'callTracer' }]));
}

export async function parityTraceBlock(chain: PublicClient, n: bigint): Promise<ParityTrace[]> {
  const method = 'trace_block';
  return parseAnswer(method, z.array(parityTraceSchema), await call(chain, method, [numberToHex(n)]));
}

export async function parityTraceTransaction(chain: PublicClient, txHash: string): Promise<ParityTrace[]> {
  const method = 'trace_transaction';
  return parseAnswer(method, z.array(parityTraceSchema), await call(chain, method, [txHash]));
}

const callData = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'hex data') as unknown as z.ZodType<Hex>;

/**
 * The balances of many addresses after a block, in one eth_call by the block's hash: the
 * creation code of BalanceReader.sol run at that block (never deployed) returns them.
 * Null when the node no longer keeps that state, as balanceAfter.
 */
export async function balancesAfter(chain: PublicClient, addresses: string[], blockHash: Hash): Promise<bigint[] | null> {
  if (addresses.length === 0) return [];
  const method = 'eth_call';
  const data = concatHex([BALANCE_READER_BYTECODE, encodeAbiParameters([{ type: 'address[]' }], [addresses as Hex[]])]);
  try {
    const answer = parseAnswer(method, callData, await call(chain, method, [{ data }, { blockHash }]));
    let balances: readonly bigint[];
    try {
      [balances] = decodeAbiParameters([{ type: 'uint256[]' }], answer);
    } catch {
      throw new InvalidRpcAnswer(method, 'not a list of balances');
    }
    if (balances.length !== addresses.length) throw new InvalidRpcAnswer(method, `${balances.length} balances for ${addresses.length} addresses`);
    return [...balances];
  } catch (err) {
    if (isStateUnavailable(err)) return null;
    throw err;
  }
}

/**
 * An ERC-20 balance after a block, asked by the block's hash (EIP-1898): `balanceOf(owner)`
 * of `token` in eth_call. Null when the node no longer keeps that state, as balanceAfter.
 */
export async function tokenBalanceAfter(chain: PublicClient, token: string, owner: string, blockHash: Hash): Promise<bigint | null> {
  const method = 'eth_call';
  const data = concatHex(['0x70a08231', encodeAbiParameters([{ type: 'address' }], [owner as Hex])]);
  try {
    const answer = parseAnswer(method, callData, await call(chain, method, [{ to: token, data }, { blockHash }]));
    if (answer.length !== 66) throw new InvalidRpcAnswer(method, `balanceOf answered ${answer.length > 80 ? `${answer.slice(0, 80)}...` : answer}, not one word`);
    return hexToBigInt(answer);
  } catch (err) {
    if (isStateUnavailable(err)) return null;
    throw err;
  }
}
