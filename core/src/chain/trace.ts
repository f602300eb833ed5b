import { hexToBigInt, numberToHex, type Hex, type PublicClient } from 'viem';

/**
 * ETH that reaches an address through internal calls: what smart-contract wallets (Safe,
 * ERC-4337 accounts) send, where the transaction's top-level recipient is the wallet, not
 * the payee. Read from the node's call traces: `debug_traceTransaction` /
 * `debug_traceBlockByHash` with the call tracer (geth, reth, erigon, anvil), or
 * `trace_transaction` / `trace_block` (erigon, nethermind, reth, anvil). Which one the
 * node answers is found on first use and remembered; `CHAIN_TRACING=off` says it has
 * neither (then the indexer records unexplained inflows for an admin instead).
 */
export type TracingMode = 'auto' | 'debug' | 'parity' | 'off';

/**
 * What a transaction delivered to the address: value in call frames that did not revert,
 * who made the (first) call that delivered it, and in how many calls.
 */
export type Delivery = { from: string; valueWei: bigint; calls: number };

export type Tracer = {
  /**
   * Value each transaction of the block delivered to `to` (top-level and internal), by
   * tx hash; null when the node cannot trace. The block is named by number and hash: an
   * answer for another block at that height (a reorganization) is an error.
   */
  block(block: { number: bigint; hash: string }, to: string): Promise<Map<string, Delivery> | null>;
  /** Value one transaction delivered to `to`; null when the node cannot trace. */
  transaction(hash: string, to: string): Promise<Delivery | null>;
};

type CallFrame = { type?: string; from?: string; to?: string; value?: Hex; error?: string; calls?: CallFrame[] };
type ParityTrace = {
  type: string;
  action: { from?: string; to?: string; value?: Hex; callType?: string; address?: string; refundAddress?: string; balance?: Hex };
  error?: string;
  traceAddress: number[];
  transactionHash?: string;
  blockHash?: string;
};

function add(into: Map<string, Delivery>, txHash: string, from: string, value: bigint): void {
  const key = txHash.toLowerCase();
  const prior = into.get(key);
  into.set(key, { from: prior?.from ?? from.toLowerCase(), valueWei: (prior?.valueWei ?? 0n) + value, calls: (prior?.calls ?? 0) + 1 });
}

/**
 * callTracer: a frame's value reaches `to` when it is a CALL (or a SELFDESTRUCT naming
 * it) and neither it nor a frame above it reverted. CALLCODE and DELEGATECALL run the
 * target's code in the caller's account: their value never leaves the caller.
 */
function walkCalls(frame: CallFrame, to: string, txHash: string, into: Map<string, Delivery>): void {
  if (frame.error) return; // this frame and everything it called was reverted
  const value = frame.value ? hexToBigInt(frame.value) : 0n;
  const kind = (frame.type ?? 'CALL').toUpperCase();
  if (value > 0n && frame.to?.toLowerCase() === to && (kind === 'CALL' || kind === 'SELFDESTRUCT')) {
    add(into, txHash, frame.from ?? '', value);
  }
  for (const child of frame.calls ?? []) walkCalls(child, to, txHash, into);
}

/** Parity traces: flat, each with its path; reverted when it or an ancestor in its transaction has an error. */
function walkParity(traces: ParityTrace[], to: string, into: Map<string, Delivery>): void {
  const failed = new Set(traces.filter((t) => t.error).map((t) => `${t.transactionHash}/${t.traceAddress.join('.')}`));
  const reverted = (t: ParityTrace) => {
    for (let depth = 0; depth <= t.traceAddress.length; depth++) {
      if (failed.has(`${t.transactionHash}/${t.traceAddress.slice(0, depth).join('.')}`)) return true;
    }
    return false;
  };
  for (const t of traces) {
    if (!t.transactionHash || reverted(t)) continue;
    // Only a plain call moves its value to its target (not callcode, delegatecall, staticcall).
    if (t.type === 'call' && t.action.callType !== 'call') continue;
    const isSuicide = t.type === 'suicide' || t.type === 'selfdestruct';
    const target = isSuicide ? t.action.refundAddress : t.action.to;
    const value = isSuicide ? t.action.balance : t.action.value;
    const amount = value ? hexToBigInt(value) : 0n;
    if (amount > 0n && target?.toLowerCase() === to) add(into, t.transactionHash, (isSuicide ? t.action.address : t.action.from) ?? '', amount);
  }
}

function errorText(err: unknown): string {
  const e = err as { code?: unknown; message?: string; details?: string; cause?: { code?: unknown; message?: string } };
  return `${e?.code ?? ''} ${e?.cause?.code ?? ''} ${e?.message ?? ''} ${e?.details ?? ''} ${e?.cause?.message ?? ''}`;
}

/**
 * True for the errors of a node that does not offer a method (so the next kind is
 * tried), and only for those: a node that offers it but lacks one block's state says so
 * differently (isStateUnavailable), and must not switch tracing off for good.
 */
export function isMethodUnsupported(err: unknown): boolean {
  if (isStateUnavailable(err)) return false;
  const text = errorText(err);
  return /(^|\s)-32601(\s|$)|(^|\s)-32004(\s|$)|method not found|unknown method|method .*(does not exist|is not available|not supported|unsupported)|namespace .*(disabled|not enabled)/i.test(text);
}

/** True for a node's answer that it no longer keeps the state of that block (a pruned node). */
export function isStateUnavailable(err: unknown): boolean {
  return /missing trie node|historical state|state (is )?(not available|unavailable)|state .*pruned|pruned|required .*state|state not found|header not found for state/i.test(errorText(err));
}

export function createTracer(chain: PublicClient, mode: TracingMode): Tracer {
  let kind: 'debug' | 'parity' | 'none' | undefined = mode === 'off' ? 'none' : mode === 'auto' ? undefined : mode;
  const rpc = (method: string, params: unknown[]) => chain.request({ method: method as never, params: params as never }) as Promise<unknown>;

  /** Runs `debug`, else `parity`, remembering which one the node answers. */
  async function traced<T>(debug: () => Promise<T>, parity: () => Promise<T>): Promise<T | null> {
    for (const candidate of kind ? [kind] : (['debug', 'parity'] as const)) {
      if (candidate === 'none') return null;
      try {
        const result = await (candidate === 'debug' ? debug() : parity());
        kind = candidate;
        return result;
      } catch (err) {
        if (kind || !isMethodUnsupported(err)) throw err;
      }
    }
    kind = 'none';
    return null;
  }

  return {
    async block(block, to) {
      const target = to.toLowerCase();
      return traced(
        async () => {
          const out = new Map<string, Delivery>();
          const result = (await rpc('debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }])) as { txHash?: string; result: CallFrame }[];
          for (const entry of result) if (entry.txHash) walkCalls(entry.result, target, entry.txHash, out);
          return out;
        },
        async () => {
          const out = new Map<string, Delivery>();
          // trace_block takes a number only: traces of another block at that height are refused.
          const traces = (await rpc('trace_block', [numberToHex(block.number)])) as ParityTrace[];
          if (traces.some((t) => t.blockHash && t.blockHash.toLowerCase() !== block.hash.toLowerCase())) {
            throw new Error(`the node traced another block at height ${block.number} (reorganized)`);
          }
          walkParity(traces, target, out);
          return out;
        },
      );
    },
    async transaction(hash, to) {
      const target = to.toLowerCase();
      const found = await traced(
        async () => {
          const out = new Map<string, Delivery>();
          walkCalls((await rpc('debug_traceTransaction', [hash, { tracer: 'callTracer' }])) as CallFrame, target, hash, out);
          return out;
        },
        async () => {
          const out = new Map<string, Delivery>();
          walkParity(((await rpc('trace_transaction', [hash])) as ParityTrace[]).map((t) => ({ ...t, transactionHash: hash })), target, out);
          return out;
        },
      );
      if (found === null) return null;
      return found.get(hash.toLowerCase()) ?? { from: '', valueWei: 0n, calls: 0 };
    },
  };
}
