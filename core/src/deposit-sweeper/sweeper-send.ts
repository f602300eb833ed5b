import { encodeFunctionData, type Address, type Hash, type Hex } from 'viem';
import { Prisma, type Db, type DepositSweepKind } from '../infra/db.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import type { Tx } from '../books/ledger.ts';
import { PAYABLE_STATUSES } from '../payments/order-states.ts';
import { depositFactoryAbi } from '../deposits/abi.ts';
import { depositSalt } from '../deposits/addresses.ts';
import type { Holding } from './sweeper-candidates.ts';
import type { Fees } from './sweeper-budget.ts';
import type { SweepDeps } from './sweeper-verify.ts';
import { ethText, factoryTransaction, refusedForGood, type GasWallet } from './sweeper-wallet.ts';

/**
 * Sending one sweep: the nonce, the gas wallet's balance, then the row and the broadcast.
 * The row (SENT, with an item per address and its balance) is written under a lock that
 * every sender takes, after checking again that no sweep on its way holds these addresses
 * or this nonce and that their orders still wait for no payment: two workers never send
 * two sweeps of one address, nor two transactions with one nonce, but a replacement of a
 * sweep the node lost (same nonce: only one of the two can ever be mined). With a local
 * key this happens before the broadcast.
 */
export type Sent = { txHash: Hash; addresses: number; expectedWei: bigint; gasLimit: bigint; maxFeePerGas: bigint };

/** One address of a sweep and what it holds of one asset (a token sweep may take two tokens of one address). */
export type SweepItemPlan = { address: string; asset: AssetCode; amount: bigint };

export type SweepPlan = {
  kind: DepositSweepKind;
  items: SweepItemPlan[];
  /** The factory call (ETH: sweep(salts)), or the factory calls batched through Multicall3 (tokens: recoverToken each). */
  data: Hex | Hex[];
  gasLimit: bigint;
  worstWei: bigint;
  fees: Fees;
  now: Date;
  /** Sweeps on their way that the node lost (sweeper-verify.ts): their nonces and addresses may be taken again. */
  lost: string[];
};

export function sweepCallData(batch: Pick<Holding, 'orderId'>[]) {
  return encodeFunctionData({ abi: depositFactoryAbi, functionName: 'sweep', args: [batch.map((h) => depositSalt(h.orderId))] });
}

export async function sendSweep(deps: SweepDeps, wallet: GasWallet, plan: SweepPlan): Promise<Sent | { wait: string }> {
  const { chain } = deps;
  const nonce = await chain.getTransactionCount({ address: wallet.address, blockTag: 'pending' });
  const holder = await deps.db.depositSweep.findFirst({ where: { fromAddress: wallet.address.toLowerCase(), nonce, status: 'SENT', id: { notIn: plan.lost } } });
  if (holder) return { wait: `Sweeping waits: sweep ${holder.txHash} (nonce ${nonce}) is on its way` };
  const replaceable = plan.lost;
  const balance = await chain.getBalance({ address: wallet.address });
  if (balance < plan.worstWei) {
    return { wait: `Sweeping waits: the gas wallet ${wallet.address} holds ${ethText(balance)} ETH, less than this sweep may cost (${ethText(plan.worstWei)} ETH); top it up` };
  }
  const expectedWei = plan.items.reduce((sum, i) => sum + (i.asset === 'ETH' ? i.amount : 0n), 0n);
  const call = { data: plan.data, gas: plan.gasLimit, maxFeePerGas: plan.fees.maxFeePerGas, maxPriorityFeePerGas: plan.fees.maxPriorityFeePerGas, nonce };
  const row = { kind: plan.kind, fromAddress: wallet.address.toLowerCase(), nonce, gasLimit: plan.gasLimit, maxFeePerGasWei: plan.fees.maxFeePerGas, expectedWei, items: plan.items, replaceable };
  let outcome: Recorded | null = null;
  let recordedHash: Hash | null = null;
  // An external signer sends first: check before, write after whatever happens.
  if (wallet.kind === 'signer') {
    const before = await recordSweep(deps.db, { ...row, txHash: '0x' }, { dryRun: true });
    if (before !== 'recorded') return { wait: waitFor(before) };
  }
  const record = async (hash: Hash) => {
    outcome = await recordSweep(deps.db, { ...row, txHash: hash }, { sent: wallet.kind === 'signer' });
    if (outcome === 'recorded') recordedHash = hash;
    return outcome === 'recorded';
  };
  const addresses = new Set(plan.items.map((i) => i.address.toLowerCase())).size;
  try {
    const { hash, broadcast } = await wallet.send(call, record);
    if (!broadcast) return { wait: waitFor(outcome ?? 'busy') };
    return { txHash: hash, addresses, expectedWei, gasLimit: plan.gasLimit, maxFeePerGas: plan.fees.maxFeePerGas };
  } catch (err) {
    if (!refusedForGood(err)) throw err;
    // The node refused it for good: it will never be mined; its addresses are candidates again.
    const why = String((err as { shortMessage?: string; message?: string }).shortMessage ?? (err as Error).message).slice(0, 200);
    if (recordedHash) await deps.db.depositSweep.updateMany({ where: { txHash: recordedHash, status: 'SENT' }, data: { status: 'DROPPED', reason: `The node refused it: ${why}` } });
    return { wait: `Sweeping waits: the node refused the sweep (${why})` };
  }
}

/** The gas limit over the node's estimate: a batch's state may change a little before it is mined (an address swept by someone else costs less). */
const GAS_MARGIN_PERCENT = 20n;

/** The node's estimate of the gas wallet's call of the factory (or calls, batched: sweeper-wallet.ts), with the margin. */
export async function gasLimitOf(deps: Pick<SweepDeps, 'chain' | 'config'>, wallet: GasWallet, data: Hex | Hex[]): Promise<bigint> {
  const estimate = await deps.chain.estimateGas({ account: wallet.address as Address, ...factoryTransaction(deps.config.depositFactoryAddress as Address, data) });
  return (estimate * (100n + GAS_MARGIN_PERCENT)) / 100n;
}

type Recorded = 'recorded' | 'busy' | 'order-changed';

const waitFor = (outcome: Recorded) =>
  `Sweeping waits: ${outcome === 'order-changed' ? 'an order of the batch is being paid again' : 'another worker is sending a sweep of these addresses'}; the next run picks again`;

type Row = { txHash: Hash; kind: DepositSweepKind; fromAddress: string; nonce: number; gasLimit: bigint; maxFeePerGasWei: bigint; expectedWei: bigint; items: SweepItemPlan[]; replaceable: string[] };

/**
 * Writes the sweep's row, unless another sender got there first or an order of the batch
 * is being paid again. `sent`: the transaction is out already (an external signer): the
 * row is written whatever the checks say, so it is followed like any other.
 */
async function recordSweep(db: Db, row: Row, opts: { sent?: boolean; dryRun?: boolean } = {}): Promise<Recorded> {
  const dec = (wei: bigint) => new Prisma.Decimal(wei.toString());
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('deposit-sweep-send'))`;
    const conflict = await batchConflict(tx, row);
    if (opts.dryRun || (conflict && !opts.sent)) return conflict ?? 'recorded';
    // The very transaction of a sweep the node lost (same nonce, batch and fees): broadcast again.
    const same = await tx.depositSweep.findUnique({ where: { txHash: row.txHash.toLowerCase() }, select: { status: true } });
    if (same) return same.status === 'SENT' ? 'recorded' : 'busy';
    await tx.depositSweep.create({
      data: {
        txHash: row.txHash.toLowerCase(),
        kind: row.kind,
        fromAddress: row.fromAddress,
        nonce: row.nonce,
        gasLimit: row.gasLimit,
        maxFeePerGasWei: dec(row.maxFeePerGasWei),
        expectedWei: dec(row.expectedWei),
        // A token item moves no ETH: its own amount is expectedAmount, in the token's smallest units.
        items: {
          create: row.items.map((i) =>
            i.asset === 'ETH' ? { address: i.address.toLowerCase(), expectedWei: dec(i.amount) } : { address: i.address.toLowerCase(), asset: i.asset, expectedWei: dec(0n), expectedAmount: dec(i.amount) },
          ),
        },
      },
    });
    return 'recorded';
  });
}

/** Why the batch must not be sent now (checked under the senders' lock), or null. */
async function batchConflict(tx: Tx, row: Omit<Row, 'txHash'>): Promise<Exclude<Recorded, 'recorded'> | null> {
  const addresses = [...new Set(row.items.map((i) => i.address.toLowerCase()))];
  const busy = await tx.depositSweepItem.count({ where: { address: { in: addresses }, sweep: { status: 'SENT', id: { notIn: row.replaceable } } } });
  const nonceTaken = await tx.depositSweep.count({ where: { fromAddress: row.fromAddress, nonce: row.nonce, status: 'SENT', id: { notIn: row.replaceable } } });
  if (busy > 0 || nonceTaken > 0) return 'busy';
  const [found] = await tx.$queryRaw<{ changed: number }[]>`
    SELECT COUNT(*)::int AS changed FROM "Order" o
    WHERE o."depositAddress" = ANY(${addresses}::text[])
      AND (o."status"::text = ANY(${[...PAYABLE_STATUSES] as string[]}::text[])
        OR EXISTS (SELECT 1 FROM "Payment" p WHERE p."depositAddress" = o."depositAddress" AND p."sweepId" IS NULL AND p."status" = 'PENDING'))`;
  return (found?.changed ?? 0) > 0 ? 'order-changed' : null;
}
