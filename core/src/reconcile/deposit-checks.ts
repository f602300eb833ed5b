import type { Hash, PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { exactEth } from '../contract/money.ts';
import { indexerHalt, readCursor } from '../chain/cursor.ts';
import { balanceAfter } from '../chain/rpc.ts';
import { heldWei } from '../deposit-sweeper/sweeper-marks.ts';
import { checkQuietAddresses } from './quiet-deposits.ts';
import { checkTokenAddresses } from './token-deposit-checks.ts';
import { checkSweepBatch, type SweepChain } from './sweep-checks.ts';
import type { Add } from './subjects.ts';

/**
 * The books of the deposit addresses (docs/decisions.md, "A deposit address per order"):
 *
 * - each address holding unswept deposits holds, on chain at a confirmed block, exactly
 *   what those deposits mined by then add up to (less what a flush in a deposit's own
 *   transaction moved early: deposit-sweeper/sweeper-marks.ts heldWei): less is 'deposit-missing'
 *   (recorded ETH that is not there), more is 'deposit-unrecorded' (ETH that arrived
 *   unrecorded);
 * - the same in each token (reconcile/token-deposit-checks.ts): a token deposit is never
 *   summed as wei, and a token balance the books do not know is 'deposit-unrecorded';
 * - an address with nothing unswept recorded holds nothing (reconcile/quiet-deposits.ts);
 * - the sweeper's records (reconcile/sweep-checks.ts): 'sweep-mismatch', 'sweep-off-chain',
 *   'sweep-unconfirmed', 'sweep-unproven'.
 *
 * Two scopes, as the other checks: the audit walks every address with unswept deposits
 * (the partial index x_payment_unswept_deposit, in keyset batches) and every sweep
 * (primary key batches); the scheduled run reads the addresses and sweeps that changed
 * since (Payment(updatedAt), Order(updatedAt), DepositSweep(createdAt)), and those the
 * previous report named. An address stays unchecked while a sweep of it is in flight
 * (SENT, or confirmed above the block read), when a deposit's value is not known yet, and
 * while indexing is halted.
 */
export const DEPOSIT_CHECKS = ['deposit-missing', 'deposit-unrecorded', 'sweep-mismatch', 'sweep-off-chain', 'sweep-unconfirmed', 'sweep-unproven'] as const;

/**
 * A sweep is confirmed, failed or dropped within this long of being sent: the scheduled
 * run reads again every sweep sent this long before its start of changes.
 */
export const SWEEP_SETTLE_MS = 24 * 3600_000;

type Deps = { db: Db; chain: PublicClient; config: AppConfig };

export type DepositScope = {
  /** The scheduled run's start of changes; the audit has none. */
  since?: Date;
  /** The previous reports' discrepancies: their addresses and sweeps are read again. */
  recheck: { check: string; ids: Record<string, string> }[];
  batchSize: number;
  blockWindow: number | 'all';
  /** false: leave out what asks the node. */
  chain: boolean;
};

/** The block the balances are read at: confirmed, and indexed (the checkpoint has passed it, so its deposits are recorded). */
type ReadBlock = { number: bigint; hash: Hash };

export async function checkDeposits(deps: Deps, scope: DepositScope, add: Add, checked: Record<string, number | string>): Promise<void> {
  const { db } = deps;
  const onChain = scope.chain && !(await indexerHalt(db, deps.config.chainId));
  const again = (key: string) => scope.recheck.flatMap((d) => (DEPOSIT_CHECKS.includes(d.check as never) && d.ids[key] ? [d.ids[key]] : []));

  let head: Promise<bigint> | null = null;
  const sweepChain: SweepChain | null = onChain
    ? { chain: deps.chain, window: scope.blockWindow, hashes: new Map(), head: () => (head ??= deps.chain.getBlockNumber({ cacheTime: 0 })), receiving: deps.config.receivingAddress }
    : null;
  let sweeps = 0;
  const sweepBatches = scope.since ? batchesOf(changedSweeps(db, scope.since), again('sweepId'), scope.batchSize) : keysetBatches(db, 'sweep', scope.batchSize);
  for await (const batch of sweepBatches) sweeps += await checkSweepBatch(db, batch, sweepChain, add);
  checked.sweeps = sweeps;

  if (!onChain) return;
  const addressBatches = scope.since ? batchesOf(changedAddresses(db, scope.since), again('address'), scope.batchSize) : keysetBatches(db, 'address', scope.batchSize);
  let at: ReadBlock | null | undefined;
  let addresses = 0;
  let tokenReads = 0;
  for await (const batch of addressBatches) {
    at ??= await readBlock(deps);
    if (!at) break;
    addresses += await checkBalances(deps, at, batch, add);
    tokenReads += await checkTokenAddresses(deps, at, batch, { withUnswept: true }, add);
  }
  checked['deposit addresses'] = addresses;
  checked['token balances at deposit addresses'] = tokenReads;
  // The block is read only once an address is there to check (a shop without deposit addresses asks the node nothing).
  checked['quiet deposit addresses'] = await checkQuietAddresses(deps, async () => (at ??= await readBlock(deps)), scope.since !== undefined, add);
}

/**
 * The newest block both confirmed (PAYMENT_CONFIRMATIONS) and indexed: at most the
 * checkpoint, so every deposit mined by then is recorded. Null before any block.
 */
async function readBlock(deps: Deps): Promise<ReadBlock | null> {
  const [cursor, head] = await Promise.all([readCursor(deps.db, deps.config.chainId), deps.chain.getBlockNumber({ cacheTime: 0 })]);
  const confirmed = head - BigInt(deps.config.paymentConfirmations - 1);
  const n = cursor && cursor.blockNumber < confirmed ? cursor.blockNumber : confirmed;
  if (n < 0n) return null;
  const block = await deps.chain.getBlock({ blockNumber: n });
  return { number: n, hash: block.hash };
}

type AddressRow = { address: string; orderId: string | null; recorded: Prisma.Decimal; unvalued: bigint; inFlight: boolean };

/**
 * The books of `addresses` at the block: the sum of each one's unswept deposits mined by
 * then, how many of those have no value yet, and whether a sweep of it is in flight (SENT,
 * or confirmed above the block). One statement, one snapshot: a sweep confirmed after it
 * was SENT in this snapshot (its address skipped), or its deposits were marked in it.
 */
const booksOf = (db: Db, at: ReadBlock, addresses: string[]) => db.$queryRaw<AddressRow[]>`
    SELECT p."depositAddress" AS address,
           (SELECT o."id"::text FROM "Order" o WHERE o."depositAddress" = p."depositAddress") AS "orderId",
           COALESCE(SUM(${heldWei('p')}) FILTER (WHERE p."blockNumber" <= ${at.number}), 0) AS recorded,
           COUNT(*) FILTER (WHERE p."blockNumber" <= ${at.number} AND p."amount" IS NULL) AS unvalued,
           EXISTS (SELECT 1 FROM "DepositSweepItem" i JOIN "DepositSweep" s ON s."id" = i."sweepId"
                   WHERE i."address" = p."depositAddress"
                     AND (s."status" = 'SENT' OR (s."status" = 'CONFIRMED' AND (s."blockNumber" IS NULL OR s."blockNumber" > ${at.number})))) AS "inFlight"
    FROM "Payment" p
    WHERE p."depositAddress" = ANY(${addresses}::text[]) AND p."depositAddress" IS NOT NULL AND p."asset" = 'ETH' AND p."sweepId" IS NULL AND p."status" <> 'REJECTED'
    GROUP BY p."depositAddress"`;

/** An address's balance against its books: the finding, or null when they agree. */
function compare(r: AddressRow, balance: bigint, at: ReadBlock): { check: 'deposit-missing' | 'deposit-unrecorded'; message: string } | null {
  const recorded = BigInt(r.recorded.toFixed(0));
  if (balance === recorded) return null;
  const held = `The deposit address holds ${exactEth(balance)} ETH after block ${at.number}`;
  if (balance < recorded) return { check: 'deposit-missing', message: `${held} but its unswept deposits add up to ${exactEth(recorded)} ETH: ${exactEth(recorded - balance)} ETH recorded is not there` };
  return { check: 'deposit-unrecorded', message: `${held}, ${exactEth(balance - recorded)} ETH more than its unswept deposits (${exactEth(recorded)} ETH): ETH arrived that the shop did not record` };
}

/**
 * A batch of addresses: the sum of their unswept deposits mined by the block against
 * their balances after it (asked by the block's hash). Returns how many were compared.
 */
async function checkBalances(deps: Deps, at: ReadBlock, addresses: string[], add: Add): Promise<number> {
  const rows = await booksOf(deps.db, at, addresses);
  const due = rows.filter((r) => !r.inFlight && Number(r.unvalued) === 0);
  const balances = await mapLimited(due, 8, (r) => balanceAfter(deps.chain, r.address, at.hash));
  let compared = 0;
  due.forEach((r, i) => {
    const balance = balances[i];
    if (balance === null || balance === undefined) return; // the node no longer keeps that state
    compared++;
    const finding = compare(r, balance, at);
    if (finding) add(finding.check, finding.message, { address: r.address, ...(r.orderId ? { orderId: r.orderId } : {}) });
  });
  return compared;
}

/**
 * Why one address's books cannot be shown to agree now (the same reading as the
 * reconciler's, for that address alone; a surplus aside), or null when they agree: what refunding an
 * inflow there waits for (payouts/refunds.ts). Fails closed: indexing halted, the indexer
 * not past `block` yet, a sweep of it in flight, a deposit not valued yet, or the node not
 * keeping the state all wait.
 */
export async function depositBooksDisagree(deps: Deps, address: string, block: bigint | null): Promise<string | null> {
  const halt = await indexerHalt(deps.db, deps.config.chainId);
  if (halt) return `indexing is halted (${halt.reason})`;
  const at = await readBlock(deps);
  if (!at || (block !== null && at.number < block)) return `the indexer has not passed block ${block} yet`;
  const [found] = await booksOf(deps.db, at, [address.toLowerCase()]);
  // Nothing unswept there (the inflow swept already): it holds nothing, unless a sweep is on its way.
  const sent = found ? 0 : await deps.db.depositSweepItem.count({ where: { address: address.toLowerCase(), sweep: { status: 'SENT' } } });
  const row = found ?? { address: address.toLowerCase(), orderId: null, recorded: new Prisma.Decimal(0), unvalued: 0n, inFlight: sent > 0 };
  if (row.inFlight) return 'a sweep of it is on its way';
  if (Number(row.unvalued) > 0) return 'a deposit there is still being verified';
  const balance = await balanceAfter(deps.chain, row.address, at.hash);
  if (balance === null) return `the node no longer keeps its balance at block ${at.number}`;
  // Only a shortfall: ETH recorded twice shows as less at the address than its books. A
  // surplus (ETH nobody recorded, 1 wei forced in by anyone) cannot make the refunded ETH
  // count twice, and would let a stranger hold a refund up for good.
  const finding = compare(row, balance, at);
  return finding?.check === 'deposit-missing' ? finding.message : null;
}

/** `fn` over `items`, at most `limit` at a time, results in order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}

const read = async (db: Db, sql: Prisma.Sql): Promise<string[]> => (await db.$queryRaw<{ v: string }[]>(sql)).map((r) => r.v);

/** Addresses whose deposits or order changed since, and those of sweeps sent within SWEEP_SETTLE_MS before it. */
const changedAddresses = (db: Db, since: Date) =>
  read(db, Prisma.sql`
    SELECT "depositAddress" AS v FROM "Payment" WHERE "updatedAt" > ${since} AND "depositAddress" IS NOT NULL
    UNION SELECT "depositAddress" FROM "Order" WHERE "updatedAt" > ${since} AND "depositAddress" IS NOT NULL
    UNION SELECT i."address" FROM "DepositSweep" s JOIN "DepositSweepItem" i ON i."sweepId" = s."id" WHERE s."createdAt" > ${new Date(since.getTime() - SWEEP_SETTLE_MS)}`);

/**
 * Sweeps sent within SWEEP_SETTLE_MS before `since` or after it, those whose deposits were
 * marked since, and every one still SENT (a few: those on their way, and any mined but not
 * shown to have paid, however old; DepositSweep(status, createdAt)).
 */
const changedSweeps = (db: Db, since: Date) =>
  read(db, Prisma.sql`
    SELECT "id"::text AS v FROM "DepositSweep" WHERE "createdAt" > ${new Date(since.getTime() - SWEEP_SETTLE_MS)}
    UNION SELECT "sweepId"::text FROM "Payment" WHERE "updatedAt" > ${since} AND "sweepId" IS NOT NULL
    UNION SELECT "id"::text FROM "DepositSweep" WHERE "status" = 'SENT'`);

async function* batchesOf(changed: Promise<string[]>, again: string[], size: number): AsyncGenerator<string[]> {
  const all = [...new Set([...(await changed), ...again])].sort();
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

/**
 * The audit's walks, in keyset batches: every sweep by its primary key, and every address
 * holding unswept deposits through the partial index x_payment_unswept_deposit (never the
 * history of swept ones).
 */
async function* keysetBatches(db: Db, what: 'sweep' | 'address', size: number): AsyncGenerator<string[]> {
  let after: string | null = null;
  for (;;) {
    const rows: string[] =
      what === 'sweep'
        ? await read(db, Prisma.sql`
            SELECT s."id"::text AS v FROM "DepositSweep" s ${after ? Prisma.sql`WHERE s."id" > ${after}::uuid` : Prisma.empty} ORDER BY s."id" LIMIT ${size}`)
        : await read(db, Prisma.sql`
            SELECT DISTINCT p."depositAddress" AS v FROM "Payment" p
            WHERE p."depositAddress" IS NOT NULL AND p."sweepId" IS NULL AND p."status" <> 'REJECTED' ${after ? Prisma.sql`AND p."depositAddress" > ${after}` : Prisma.empty}
            ORDER BY 1 LIMIT ${size}`);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!;
  }
}
