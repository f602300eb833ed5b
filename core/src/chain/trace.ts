import { hexToBigInt, type PublicClient } from 'viem';
import { InvalidRpcAnswer, isMethodUnsupported } from './errors.ts';
import { debugTraceBlock, debugTraceTransaction, parityTraceBlock, parityTraceTransaction, type CallFrame, type ParityTrace } from './rpc.ts';

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
 * who made the (first) call that delivered it, in how many calls, and who paid it.
 */
export type Delivery = {
  /** Who made the (first) call that delivered value: shown to admins, never trusted as the payer by itself. */
  from: string;
  valueWei: bigint;
  calls: number;
  /**
   * The one address that sent all of it from its own funds: it made every delivering call
   * (so one call) and received no ETH in the same transaction (nothing relayed or
   * forwarded through it). Null otherwise: a batch can carry another wallet's payment
   * behind a first call of the batcher's, and a contract that passes on what it was sent
   * in the same transaction is not where the ETH came from.
   */
  payer: string | null;
  /** Each delivering call: who made it and what it moved. */
  parts: { from: string; valueWei: bigint }[];
};

/**
 * Of these addresses, the ones whose calls move the follower's own money to it (the
 * shop's deposit forwarders flushing to the receiving address): what they deliver is
 * no payment. The chain layer knows nothing of orders; the payments layer answers.
 */
export type OwnSenders = (addresses: string[]) => Promise<Set<string>>;

/**
 * The follower's own money moving to it: which callers are its own (`senders`), and how
 * much each moved to it in a block (`movedIn`, read from their own events: what a node
 * that cannot trace still shows).
 */
export type OwnMoney = { senders: OwnSenders; movedIn: (block: { hash: string }) => Promise<Map<string, bigint>> };

/** A delivery without the parts `own` senders made (null when nothing else delivered). */
export function withoutOwnParts(d: Delivery, own: Set<string>): Delivery | null {
  const parts = d.parts.filter((p) => !own.has(p.from.toLowerCase()));
  if (parts.length === d.parts.length) return d;
  if (parts.length === 0) return null;
  return {
    from: parts[0]!.from,
    valueWei: parts.reduce((sum, p) => sum + p.valueWei, 0n),
    calls: parts.length,
    // Mixed with the shop's own flushes in one transaction: no single payer is trusted.
    payer: null,
    parts,
  };
}

/** `d` without its own senders' parts, asking `ownSenders` which of its callers are. */
export async function deliveryFromOthers(d: Delivery, ownSenders: OwnSenders | undefined): Promise<Delivery | null> {
  if (!ownSenders || d.parts.length === 0) return d;
  return withoutOwnParts(d, await ownSenders([...new Set(d.parts.map((p) => p.from.toLowerCase()))]));
}

export type Tracer = {
  /**
   * Value each transaction of the block delivered to `to` (top-level and internal), by
   * tx hash; null when the node cannot trace. The block is named by number and hash: an
   * answer for another block at that height (a reorganization) is an error.
   */
  block(block: { number: bigint; hash: string }, to: string): Promise<Map<string, Delivery> | null>;
  /** The same for several addresses from one trace of the block: by address, then by tx hash. */
  blockTo(block: { number: bigint; hash: string }, to: string[]): Promise<Map<string, Map<string, Delivery>> | null>;
  /** Value one transaction delivered to `to`; null when the node cannot trace. */
  transaction(hash: string, to: string): Promise<Delivery | null>;
};

/** The ETH one transaction moved, frame by frame: what reached the address, and what every account received. */
type Flows = { parts: { from: string; valueWei: bigint }[]; received: Map<string, bigint> };

function flowsOf(into: Map<string, Flows>, txHash: string): Flows {
  const key = txHash.toLowerCase();
  let flows = into.get(key);
  if (!flows) into.set(key, (flows = { parts: [], received: new Map() }));
  return flows;
}

/** One movement of ETH in a frame that did not revert. */
function moved(flows: Flows, to: string, from: string, value: bigint, target: string): void {
  if (value <= 0n) return;
  const receiver = to.toLowerCase();
  flows.received.set(receiver, (flows.received.get(receiver) ?? 0n) + value);
  if (receiver === target) flows.parts.push({ from: from.toLowerCase(), valueWei: value });
}

function deliveryOf(flows: Flows): Delivery {
  const first = flows.parts[0]?.from ?? '';
  const single = flows.parts.length === 1 && (flows.received.get(first) ?? 0n) === 0n;
  return {
    from: first,
    valueWei: flows.parts.reduce((sum, p) => sum + p.valueWei, 0n),
    calls: flows.parts.length,
    payer: single ? first : null,
    parts: flows.parts,
  };
}

function deliveries(flows: Map<string, Flows>): Map<string, Delivery> {
  const out = new Map<string, Delivery>();
  for (const [hash, f] of flows) if (f.parts.length > 0) out.set(hash, deliveryOf(f));
  return out;
}

/**
 * callTracer: a frame moves its value when it is a CALL, a CREATE (to the new contract)
 * or a SELFDESTRUCT (to its beneficiary) and neither it nor a frame above it reverted.
 * CALLCODE and DELEGATECALL run the target's code in the caller's account: their value
 * never leaves the caller.
 */
function walkCalls(frame: CallFrame, target: string, flows: Flows): void {
  if (frame.error) return; // this frame and everything it called was reverted
  const value = frame.value ? hexToBigInt(frame.value) : 0n;
  const kind = (frame.type ?? 'CALL').toUpperCase();
  if (frame.to && (kind === 'CALL' || kind === 'SELFDESTRUCT' || kind === 'CREATE' || kind === 'CREATE2')) moved(flows, frame.to, frame.from ?? '', value, target);
  for (const child of frame.calls ?? []) walkCalls(child, target, flows);
}

/** Parity traces: flat, each with its path; reverted when it or an ancestor in its transaction has an error. */
function walkParity(traces: ParityTrace[], target: string, into: Map<string, Flows>): void {
  const failed = new Set(traces.filter((t) => t.error).map((t) => `${t.transactionHash}/${t.traceAddress.join('.')}`));
  const reverted = (t: ParityTrace) => {
    for (let depth = 0; depth <= t.traceAddress.length; depth++) {
      if (failed.has(`${t.transactionHash}/${t.traceAddress.slice(0, depth).join('.')}`)) return true;
    }
    return false;
  };
  for (const t of traces) {
    if (!t.transactionHash || reverted(t)) continue;
    const flows = flowsOf(into, t.transactionHash);
    if (t.type === 'call') {
      // Only a plain call moves its value to its target (not callcode, delegatecall, staticcall).
      if (t.action.callType === 'call' && t.action.to) moved(flows, t.action.to, t.action.from ?? '', t.action.value ? hexToBigInt(t.action.value) : 0n, target);
    } else if (t.type === 'create') {
      if (t.result?.address) moved(flows, t.result.address, t.action.from ?? '', t.action.value ? hexToBigInt(t.action.value) : 0n, target);
    } else if ((t.type === 'suicide' || t.type === 'selfdestruct') && t.action.refundAddress) {
      moved(flows, t.action.refundAddress, t.action.address ?? '', t.action.balance ? hexToBigInt(t.action.balance) : 0n, target);
    }
  }
}

export function createTracer(chain: PublicClient, mode: TracingMode): Tracer {
  let kind: 'debug' | 'parity' | 'none' | undefined = mode === 'off' ? 'none' : mode === 'auto' ? undefined : mode;

  /** Runs `debug`, else `parity`, remembering which one the node answers. */
  async function traced<T>(debug: () => Promise<T>, parity: () => Promise<T>): Promise<T | null> {
    for (const candidate of kind ? [kind] : (['debug', 'parity'] as const)) {
      if (candidate === 'none') return null;
      try {
        const result = await (candidate === 'debug' ? debug() : parity());
        kind = candidate;
        return result;
      } catch (err) {
        // Not yet known which one the node answers: one it does not offer, or answers in a
        // shape that is not a trace, leads to the other.
        if (kind || !(isMethodUnsupported(err) || err instanceof InvalidRpcAnswer)) throw err;
      }
    }
    kind = 'none';
    return null;
  }

  async function blockTo(block: { number: bigint; hash: string }, to: string[]) {
    const targets = to.map((t) => t.toLowerCase());
    const each = (walk: (target: string, flows: Map<string, Flows>) => void) => {
      const out = new Map<string, Map<string, Delivery>>();
      for (const target of targets) {
        const flows = new Map<string, Flows>();
        walk(target, flows);
        out.set(target, deliveries(flows));
      }
      return out;
    };
    return traced(
      async () => {
        const result = await debugTraceBlock(chain, block.hash);
        return each((target, flows) => {
          for (const entry of result) if (entry.txHash) walkCalls(entry.result, target, flowsOf(flows, entry.txHash));
        });
      },
      async () => {
        // trace_block takes a number only: traces of another block at that height are refused.
        const traces = await parityTraceBlock(chain, block.number);
        if (traces.some((t) => t.blockHash && t.blockHash.toLowerCase() !== block.hash.toLowerCase())) {
          throw new Error(`the node traced another block at height ${block.number} (reorganized)`);
        }
        return each((target, flows) => walkParity(traces, target, flows));
      },
    );
  }

  return {
    async block(block, to) {
      const all = await blockTo(block, [to]);
      return all ? (all.get(to.toLowerCase()) ?? new Map()) : null;
    },
    blockTo,
    async transaction(hash, to) {
      const target = to.toLowerCase();
      const found = await traced(
        async () => {
          const flows = new Map<string, Flows>();
          walkCalls(await debugTraceTransaction(chain, hash), target, flowsOf(flows, hash));
          return flows;
        },
        async () => {
          const flows = new Map<string, Flows>();
          walkParity((await parityTraceTransaction(chain, hash)).map((t) => ({ ...t, transactionHash: hash })), target, flows);
          return flows;
        },
      );
      if (found === null) return null;
      return deliveryOf(found.get(hash.toLowerCase()) ?? { parts: [], received: new Map() });
    },
  };
}
