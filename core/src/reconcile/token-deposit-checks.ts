import { formatUnits, type Hash, type PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import { Prisma, type Db } from '../infra/db.ts';
import { tokenBalanceAfter } from '../chain/rpc.ts';
import { MAINNET_TOKENS, tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import type { Add } from './subjects.ts';

/**
 * The deposit addresses' books in tokens, beside deposit-checks.ts's in ETH: at a confirmed
 * block the indexer has passed, each address holds of each token exactly what its unswept
 * payments in that token mined by then add up to. Less is 'deposit-missing' (a token
 * recorded that is not there), more 'deposit-unrecorded' (a token arrived that the shop
 * did not record), each naming the token (`asset`). The tokens read are the accepted ones
 * (ACCEPTED_ASSETS) and any other the books hold there. An address a sweep is moving (SENT,
 * or confirmed above the block), or with a token payment not valued yet, is left for the
 * next run.
 *
 * Two callers, so each address is read once a run: the addresses with unswept deposits of
 * any asset (deposit-checks.ts, `withUnswept`), and the quiet ones with none
 * (quiet-deposits.ts). One eth_call a token and an address, eight at a time.
 */
type Deps = { db: Db; chain: PublicClient; config: AppConfig };
type ReadBlock = { number: bigint; hash: Hash };
type BookRow = { address: string; asset: TokenSymbol; recorded: Prisma.Decimal; unvalued: bigint };
type AddressRow = { address: string; orderId: string | null; unswept: boolean; inFlight: boolean };

const READS_AT_ONCE = 8;

export async function checkTokenAddresses(deps: Deps, at: ReadBlock, addresses: string[], opts: { withUnswept: boolean }, add: Add): Promise<number> {
  if (addresses.length === 0) return 0;
  const accepted = deps.config.acceptedAssets.filter((a): a is TokenSymbol => a !== 'ETH');
  const [rows, books] = await Promise.all([addressesOf(deps.db, at, addresses), tokenBooksOf(deps.db, at, addresses)]);
  const booked = new Map(books.map((b) => [`${b.address}|${b.asset}`, b]));
  const reads: { row: AddressRow; asset: TokenSymbol; recorded: bigint }[] = [];
  for (const row of rows) {
    if (row.unswept !== opts.withUnswept || row.inFlight) continue;
    const assets = new Set<TokenSymbol>([...accepted, ...books.filter((b) => b.address === row.address).map((b) => b.asset)]);
    for (const asset of MAINNET_TOKENS.map((t) => t.symbol).filter((s) => assets.has(s))) {
      const b = booked.get(`${row.address}|${asset}`);
      if (b && Number(b.unvalued) > 0) continue;
      reads.push({ row, asset, recorded: BigInt((b?.recorded ?? new Prisma.Decimal(0)).toFixed(0)) });
    }
  }
  let compared = 0;
  for (let i = 0; i < reads.length; i += READS_AT_ONCE) {
    const chunk = reads.slice(i, i + READS_AT_ONCE);
    const balances = await Promise.all(chunk.map((r) => tokenBalanceAfter(deps.chain, tokenBySymbol(r.asset).address, r.row.address, at.hash)));
    chunk.forEach((r, j) => {
      const balance = balances[j];
      if (balance === null || balance === undefined) return; // the node no longer keeps that state
      compared++;
      const message = compareToken(r.asset, r.recorded, balance, at);
      if (message) add(message.check, message.text, { address: r.row.address, ...(r.row.orderId ? { orderId: r.row.orderId } : {}), asset: r.asset });
    });
  }
  return compared;
}

function compareToken(asset: TokenSymbol, recorded: bigint, balance: bigint, at: ReadBlock): { check: 'deposit-missing' | 'deposit-unrecorded'; text: string } | null {
  if (balance === recorded) return null;
  const units = (v: bigint) => `${formatUnits(v, tokenBySymbol(asset).decimals)} ${asset}`;
  const held = `The deposit address holds ${units(balance)} after block ${at.number}`;
  if (balance < recorded) return { check: 'deposit-missing', text: `${held} but its unswept ${asset} deposits add up to ${units(recorded)}: ${units(recorded - balance)} recorded is not there` };
  return { check: 'deposit-unrecorded', text: `${held}, ${units(balance - recorded)} more than its unswept ${asset} deposits (${units(recorded)}): ${asset} arrived that the shop did not record` };
}

/** Each address's order, whether it has unswept deposits of any asset, and whether a sweep of it is in flight. */
const addressesOf = (db: Db, at: ReadBlock, addresses: string[]) => db.$queryRaw<AddressRow[]>`
    SELECT a.address,
           (SELECT o."id"::text FROM "Order" o WHERE o."depositAddress" = a.address) AS "orderId",
           EXISTS (SELECT 1 FROM "Payment" p WHERE p."depositAddress" = a.address AND p."sweepId" IS NULL AND p."status" <> 'REJECTED') AS unswept,
           EXISTS (SELECT 1 FROM "DepositSweepItem" i JOIN "DepositSweep" s ON s."id" = i."sweepId"
                   WHERE i."address" = a.address
                     AND (s."status" = 'SENT' OR (s."status" = 'CONFIRMED' AND (s."blockNumber" IS NULL OR s."blockNumber" > ${at.number})))) AS "inFlight"
    FROM unnest(${addresses}::text[]) AS a(address)`;

/** The unswept token payments of the addresses mined by the block, summed by address and token, and how many have no amount yet. */
const tokenBooksOf = (db: Db, at: ReadBlock, addresses: string[]) => db.$queryRaw<BookRow[]>`
    SELECT p."depositAddress" AS address, p."asset"::text AS asset,
           COALESCE(SUM(p."amount" - p."flushedEarly") FILTER (WHERE p."blockNumber" <= ${at.number}), 0) AS recorded,
           COUNT(*) FILTER (WHERE p."blockNumber" <= ${at.number} AND p."amount" IS NULL) AS unvalued
    FROM "Payment" p
    WHERE p."depositAddress" = ANY(${addresses}::text[]) AND p."asset" <> 'ETH' AND p."sweepId" IS NULL AND p."status" <> 'REJECTED'
    GROUP BY p."depositAddress", p."asset"`;
