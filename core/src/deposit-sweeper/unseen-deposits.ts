import type { Hash, PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { Logger } from '../infra/logger.ts';
import { confirmedIndexedBlock } from '../chain/cursor.ts';
import { balancesAfter } from '../chain/rpc.ts';
import { emitPaymentUnresolved } from '../events/webhooks.ts';
import { unaccountedFlushes } from './sweeper-found.ts';
import { heldWei } from './sweeper-marks.ts';
import { lockInflow } from '../payments/payment-locks.ts';

/**
 * ETH at an order's deposit address that the indexer never recorded: it arrived through a
 * contract after the address's watch ended (LATE_PAYMENT_HOURS after its order's window),
 * where only plain transfers are still found by their recipient. Each run reads, at a
 * block the indexer has passed (so everything it could see there is recorded), the
 * balances of the addresses whose watch ended in the last UNSEEN_DAYS and of any it is
 * given (a sweep candidate holding more than its deposits), and records what exceeds
 * their unswept deposits as the order's UNRESOLVED inflow: refundable by an admin, and
 * swept with the rest. Never twice: the next run finds it recorded.
 */
const UNSEEN_DAYS = 7;
const BATCH = 1_000;

type Deps = { db: Db; chain: PublicClient; config: AppConfig; logger: Logger };

export async function recordUnseenDeposits(deps: Deps, also: string[] = [], now = new Date()): Promise<number> {
  const at = await confirmedIndexedBlock(deps, deps.config.paymentConfirmations);
  if (!at) return 0;
  const watchEnded = new Date(now.getTime() - deps.config.latePaymentHours * 3600_000);
  const since = new Date(watchEnded.getTime() - UNSEEN_DAYS * 24 * 3600_000);
  const quiet = await deps.db.$queryRaw<{ address: string }[]>`
    SELECT "depositAddress" AS address FROM "Order"
    WHERE "depositAddress" IS NOT NULL AND "paymentDeadline" > ${since} AND "paymentDeadline" <= ${watchEnded}`;
  const addresses = [...new Set([...quiet.map((r) => r.address), ...also.map((a) => a.toLowerCase())])];
  let recorded = 0;
  for (let i = 0; i < addresses.length; i += BATCH) recorded += await recordBatch(deps, at, addresses.slice(i, i + BATCH));
  return recorded;
}

/** Less than this is left unrecorded (a millionth of an ETH, a cent at $10,000 an ETH: nobody's payment, and anyone's way to make refund work). */
export const UNSEEN_FLOOR_WEI = 10n ** 12n;

/**
 * Whether a sweep candidate holding `balanceWei` against its unswept deposits' `recordedWei`
 * waits for its surplus to be recorded here first (its sweep would move ETH the books do
 * not know of). A surplus below the floor, never recorded here, does not hold it back: the
 * sweep moves it, and its confirmation records it as the order's inflow swept by it
 * (deposit-sweeper/sweeper-marks.ts). Otherwise one wei sent through a contract would keep the
 * address from ever being swept.
 */
export const waitsForUnseen = (h: { balanceWei: bigint; recordedWei: bigint }) => h.balanceWei - h.recordedWei >= UNSEEN_FLOOR_WEI;

/** Its own key: never the same row as the indexer's inflow of that block and address. */
const unseenKey = (at: { number: bigint; hash: string }) => `unseen-${at.number}-${at.hash.slice(2, 14).toLowerCase()}`;

async function recordBatch(deps: Deps, at: { number: bigint; hash: Hash }, addresses: string[]): Promise<number> {
  const balances = await balancesAfter(deps.chain, addresses, at.hash);
  if (!balances) return 0; // the node no longer keeps that state
  const held = addresses.map((address, i) => ({ address, balance: balances[i] ?? 0n })).filter((h) => h.balance > 0n);
  let recorded = 0;
  for (const h of held) if (await recordOne(deps, at, h)) recorded++;
  return recorded;
}

/** In one transaction, under the block's inflow lock: what the address holds beyond its unswept deposits mined by `at`. */
async function recordOne(deps: Deps, at: { number: bigint; hash: Hash }, h: { address: string; balance: bigint }): Promise<boolean> {
  return deps.db.$transaction(async (tx) => {
    await lockInflow(tx, at.hash);
    const [books] = await tx.$queryRaw<{ recorded: string | null; unsettled: bigint; moving: boolean; oldest: bigint | null }[]>`
      SELECT SUM(${heldWei('p')})::text AS recorded, MIN(p."blockNumber") AS oldest,
             COUNT(*) FILTER (WHERE p."blockNumber" IS NULL OR p."blockNumber" > ${at.number} OR p."amount" IS NULL) AS unsettled,
             EXISTS (SELECT 1 FROM "DepositSweepItem" i JOIN "DepositSweep" s ON s."id" = i."sweepId"
                     WHERE i."address" = ${h.address} AND (s."status" = 'SENT' OR (s."status" = 'CONFIRMED' AND (s."blockNumber" IS NULL OR s."blockNumber" > ${at.number})))) AS moving
      FROM "Payment" p
      WHERE p."depositAddress" = ${h.address} AND p."asset" = 'ETH' AND p."sweepId" IS NULL AND p."status" <> 'REJECTED'`;
    // A deposit still being verified, or a sweep on its way: the next run looks again.
    if (!books || Number(books.unsettled) > 0 || books.moving) return false;
    const unseen = h.balance - BigInt(books.recorded ?? '0');
    if (unseen < UNSEEN_FLOOR_WEI) return false;
    // Someone flushed it since its oldest unswept deposit, not as a confirmed sweep (a stranger's,
    // or the shop's own not confirmed yet): that is recorded first (deposit-sweeper/sweeper-found.ts).
    if (books.oldest !== null && (await unaccountedFlushes(deps, h.address, { from: books.oldest, to: at.number })).length > 0) return false;
    const order = await tx.order.findUnique({ where: { depositAddress: h.address }, select: { id: true } });
    const reason = `ETH reached this order's deposit address through a contract after its watch ended (found by its balance after block ${at.number}); an admin will refund it`;
    const created = await tx.payment.createMany({
      data: [{ txHash: unseenKey(at), depositAddress: h.address, orderId: order?.id ?? null, source: 'INFLOW', status: 'UNRESOLVED', amount: new Prisma.Decimal(unseen.toString()), blockNumber: at.number, blockHash: at.hash, reason }],
      skipDuplicates: true,
    });
    if (created.count === 0) return false;
    const row = await tx.payment.findFirstOrThrow({ where: { depositAddress: h.address, txHash: unseenKey(at), logIndex: null } });
    await emitPaymentUnresolved(tx, row, reason);
    deps.logger.warn({ msg: 'ETH the indexer did not see was found at a deposit address and recorded as its order\'s inflow', deposit_address: h.address, value_wei: unseen.toString(), block_number: at.number.toString() });
    return true;
  });
}
