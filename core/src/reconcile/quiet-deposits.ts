import type { Hash, PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { exactEth } from '../contract/money.ts';
import { balancesAfter } from '../chain/rpc.ts';
import { UNSEEN_FLOOR_WEI } from '../deposit-sweeper/unseen-deposits.ts';
import type { Add } from './subjects.ts';
import { checkTokenAddresses } from './token-deposit-checks.ts';

/**
 * Deposit addresses with no unswept ETH deposit recorded that hold ETH all the same: it
 * reached them where the indexer does not look (through a contract after the address's
 * watch ended: LATE_PAYMENT_HOURS after its order's window). 'deposit-unrecorded', so an
 * operator sees it. Their balances are read a batch at a time in one eth_call each
 * (BalanceReader.sol). The audit reads every order's address (the unique index on
 * Order(depositAddress), in keyset batches); the scheduled run those whose watch ended in
 * the last QUIET_DAYS (x_order_deposit_watch).
 */
const QUIET_DAYS = 7;
const BATCH = 1_000;

type Deps = { db: Db; chain: PublicClient; config: AppConfig };

type ReadBlock = { number: bigint; hash: Hash };

export async function checkQuietAddresses(deps: Deps, blockOf: () => Promise<ReadBlock | null>, scoped: boolean, add: Add, now = new Date()): Promise<number> {
  let checked = 0;
  const watchEnded = new Date(now.getTime() - deps.config.latePaymentHours * 3600_000);
  const since = new Date(watchEnded.getTime() - QUIET_DAYS * 24 * 3600_000);
  let after: string | null = null;
  for (;;) {
    const rows: { address: string; orderId: string }[] = scoped
      ? await deps.db.$queryRaw`
          SELECT "depositAddress" AS address, "id"::text AS "orderId" FROM "Order"
          WHERE "depositAddress" IS NOT NULL AND "paymentDeadline" > ${since} AND "paymentDeadline" <= ${watchEnded}
            ${after ? Prisma.sql`AND "depositAddress" > ${after}` : Prisma.empty}
          ORDER BY "depositAddress" LIMIT ${BATCH}`
      : await deps.db.$queryRaw`
          SELECT "depositAddress" AS address, "id"::text AS "orderId" FROM "Order"
          WHERE "depositAddress" IS NOT NULL ${after ? Prisma.sql`AND "depositAddress" > ${after}` : Prisma.empty}
          ORDER BY "depositAddress" LIMIT ${BATCH}`;
    if (rows.length === 0) return checked;
    after = rows[rows.length - 1]!.address;
    const at = await blockOf();
    if (!at) return checked;
    checked += await checkBatch(deps, at, rows, add);
  }
}

async function checkBatch(deps: Deps, at: ReadBlock, rows: { address: string; orderId: string }[], add: Add): Promise<number> {
  const addresses = rows.map((r) => r.address);
  // Addresses with unswept ETH deposits are compared with them elsewhere; one a sweep is moving is skipped.
  const busy = new Set(
    (
      await deps.db.$queryRaw<{ address: string }[]>`
        SELECT DISTINCT "depositAddress" AS address FROM "Payment"
        WHERE "depositAddress" = ANY(${addresses}::text[]) AND "asset" = 'ETH' AND "sweepId" IS NULL AND "status" <> 'REJECTED'
        UNION
        SELECT i."address" FROM "DepositSweepItem" i JOIN "DepositSweep" s ON s."id" = i."sweepId"
        WHERE i."address" = ANY(${addresses}::text[]) AND (s."status" = 'SENT' OR (s."status" = 'CONFIRMED' AND (s."blockNumber" IS NULL OR s."blockNumber" > ${at.number})))`
    ).map((r) => r.address),
  );
  const quiet = rows.filter((r) => !busy.has(r.address));
  // Their tokens, where nothing of any asset is unswept (those with token deposits are deposit-checks.ts's).
  await checkTokenAddresses(deps, at, addresses, { withUnswept: false }, add);
  const balances = await balancesAfter(deps.chain, quiet.map((r) => r.address), at.hash);
  if (!balances) return 0; // the node no longer keeps that state
  quiet.forEach((r, i) => {
    const balance = balances[i] ?? 0n;
    if (balance >= UNSEEN_FLOOR_WEI) {
      add(
        'deposit-unrecorded',
        `The deposit address holds ${exactEth(balance)} ETH after block ${at.number} and the shop recorded nothing unswept there: ETH arrived that the indexer did not see (through a contract, after the address's watch ended)`,
        { address: r.address, orderId: r.orderId },
      );
    }
  });
  return quiet.length;
}
