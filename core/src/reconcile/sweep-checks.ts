import { formatUnits, type PublicClient } from 'viem';
import { Prisma, type Db } from '../infra/db.ts';
import { exactEth } from '../contract/money.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { heldWei } from '../deposit-sweeper/sweeper-marks.ts';
import { UNPROVEN } from '../deposit-sweeper/sweeper-proof.ts';
import { readHashes, type BlockHashes } from './chain-checks.ts';
import { checkTokenArrivals } from './token-sweep-checks.ts';
import { inBatch, type Add } from './subjects.ts';

/**
 * The reconciler's checks of the sweeper's records (core/src/deposit-sweeper/sweeper.ts): what a
 * confirmed sweep says it moved against its items and the deposits it marked, whether it
 * is still on the canonical chain, and no deposit marked by a sweep that is not
 * confirmed. Each batch of sweep ids is four reads: the sweeps (their primary key, the
 * batch's id range bounding the scan), their items (DepositSweepItem(sweepId)), the
 * deposits they marked, summed by sweep and address (Payment(sweepId)), and the deposits of
 * their own transactions they moved part of (x_payment_transfer_log, by hash).
 */

type SweepRow = { id: string; status: string; kind: string; txHash: string; sweptWei: Prisma.Decimal | null; blockNumber: bigint | null; blockHash: string | null; reason: string | null };
type ItemRow = { sweepId: string; address: string; sweptWei: Prisma.Decimal | null };
type MarkedRow = { sweepId: string; address: string | null; wei: Prisma.Decimal | null; ids: string[]; hashes: string[] };

const wei = (d: Prisma.Decimal | string | null) => exactEth(new Prisma.Decimal(d ?? 0).toFixed(0));
const dec = (d: Prisma.Decimal | string | null) => new Prisma.Decimal(d ?? 0);
const pair = (sweepId: string, address: string | null) => `${sweepId}|${address ?? ''}`;

/** The chain as the sweep checks read it: the head (asked once, when a sweep needs it) and the window of recent blocks. */
export type SweepChain = { chain: PublicClient; window: number | 'all'; head: () => Promise<bigint>; hashes: BlockHashes; receiving: string };

/**
 * A batch of sweeps: the CONFIRMED ones against their items and deposits ('sweep-mismatch')
 * and, with `chain`, against the canonical chain within the window ('sweep-off-chain');
 * deposits marked by the others ('sweep-unconfirmed'); SENT ones mined but not shown to
 * have paid the receiving address ('sweep-unproven'). Returns how many sweeps it read.
 */
export async function checkSweepBatch(db: Db, ids: string[], chain: SweepChain | null, add: Add): Promise<number> {
  if (ids.length === 0) return 0;
  const [sweeps, items, marked, early] = await Promise.all([
    db.$queryRaw<SweepRow[]>`
      SELECT s."id"::text AS id, s."status"::text AS status, s."kind"::text AS kind, s."txHash", s."sweptWei", s."blockNumber", s."blockHash", s."reason"
      FROM "DepositSweep" s WHERE ${inBatch('s."id"', ids)}`,
    db.$queryRaw<ItemRow[]>`
      SELECT i."sweepId"::text AS "sweepId", i."address", i."sweptWei" FROM "DepositSweepItem" i WHERE ${inBatch('i."sweepId"', ids)}`,
    // Summed in the database: a batch's sweeps may have marked many deposits.
    db.$queryRaw<MarkedRow[]>`
      SELECT p."sweepId"::text AS "sweepId", p."depositAddress" AS address, SUM(${heldWei('p')}) FILTER (WHERE p."status" <> 'REJECTED') AS wei,
             array_agg(p."id"::text ORDER BY p."id") AS ids, array_agg(p."txHash" ORDER BY p."id") AS hashes
      FROM "Payment" p WHERE ${inBatch('p."sweepId"', ids)}
      GROUP BY p."sweepId", p."depositAddress"`,
    // The part of a deposit of a sweep's own transaction that its flush moved early (the
    // deposit not marked by it): x_payment_transfer_log, by the sweep's hash.
    db.$queryRaw<{ sweepId: string; address: string; wei: Prisma.Decimal }[]>`
      SELECT s."id"::text AS "sweepId", p."depositAddress" AS address, SUM(p."flushedEarly") AS wei
      FROM "DepositSweep" s JOIN "Payment" p ON p."txHash" = s."txHash"
      WHERE ${inBatch('s."id"', ids)} AND p."depositAddress" IS NOT NULL AND p."flushedEarly" > 0 AND p."status" <> 'REJECTED' AND p."sweepId" IS DISTINCT FROM s."id"
      GROUP BY s."id", p."depositAddress"`,
  ]);
  const byId = new Map(sweeps.map((s) => [s.id, s]));
  const confirmed = sweeps.filter((s) => s.status === 'CONFIRMED');
  const itemsOf = new Map<string, ItemRow[]>();
  for (const i of items) {
    const list = itemsOf.get(i.sweepId);
    if (list) list.push(i);
    else itemsOf.set(i.sweepId, [i]);
  }
  for (const s of confirmed) checkTotals(s, itemsOf.get(s.id) ?? [], add);
  for (const s of sweeps) if (s.status === 'SENT' && s.reason?.includes(UNPROVEN)) checkUnproven(s, itemsOf.get(s.id) ?? [], add);
  const movedEarly = new Map(early.map((e) => [pair(e.sweepId, e.address), e.wei]));
  checkItems(byId, items, new Map(marked.map((m) => [pair(m.sweepId, m.address), m])), movedEarly, add);
  checkMarked(byId, new Set(items.map((i) => pair(i.sweepId, i.address))), marked, add);
  await checkTokenItems(db, ids, byId, add);
  if (chain) await checkOnChain(chain, confirmed, add);
  if (chain) await checkTokenArrivals(db, chain, confirmed.filter((s) => s.kind === 'TOKENS'), add);
  return sweeps.length;
}

type TokenItemRow = { sweepId: string; address: string; asset: string; sweptAmount: Prisma.Decimal | null };
type TokenMarkedRow = { sweepId: string; address: string | null; asset: string; amount: Prisma.Decimal | null; ids: string[]; hashes: string[] };

/**
 * A token sweep's items (token-sweep-marks.ts) in their own units: what each item moved of
 * its token (read from the token's Transfer log) equals the unswept payments in that token
 * it marked at that address; and a token payment is marked only by a sweep that moved its
 * token from its address (never by an ETH sweep's flush). Two reads: the batch's token
 * items and the token payments it marked, by sweep, address and token.
 */
async function checkTokenItems(db: Db, ids: string[], sweeps: Map<string, SweepRow>, add: Add): Promise<void> {
  const [items, marked] = await Promise.all([
    db.$queryRaw<TokenItemRow[]>`
      SELECT i."sweepId"::text AS "sweepId", i."address", i."asset"::text AS asset, i."sweptAmount" FROM "DepositSweepItem" i
      WHERE ${inBatch('i."sweepId"', ids)} AND i."asset" <> 'ETH'`,
    db.$queryRaw<TokenMarkedRow[]>`
      SELECT p."sweepId"::text AS "sweepId", p."depositAddress" AS address, p."asset"::text AS asset, SUM(p."amount" - p."flushedEarly") FILTER (WHERE p."status" <> 'REJECTED') AS amount,
             array_agg(p."id"::text ORDER BY p."id") AS ids, array_agg(p."txHash" ORDER BY p."id") AS hashes
      FROM "Payment" p WHERE ${inBatch('p."sweepId"', ids)} AND p."asset" <> 'ETH'
      GROUP BY p."sweepId", p."depositAddress", p."asset"`,
  ]);
  const key = (sweepId: string, address: string | null, asset: string) => `${sweepId}|${address ?? ''}|${asset}`;
  const markedBy = new Map(marked.map((m) => [key(m.sweepId, m.address, m.asset), m]));
  const units = (v: Prisma.Decimal | null, asset: string) => `${formatUnits(BigInt(dec(v).toFixed(0)), tokenBySymbol(asset as TokenSymbol).decimals)} ${asset}`;
  for (const i of items) {
    const sweep = sweeps.get(i.sweepId);
    if (sweep?.status !== 'CONFIRMED') continue;
    const ids = { sweepId: i.sweepId, address: i.address, txHash: sweep.txHash, asset: i.asset };
    const sum = markedBy.get(key(i.sweepId, i.address, i.asset))?.amount ?? null;
    if (i.sweptAmount === null) add('sweep-mismatch', `The token sweep is CONFIRMED without the ${i.asset} its address moved`, ids);
    else if (!dec(i.sweptAmount).eq(dec(sum))) {
      add('sweep-mismatch', `The sweep moved ${units(i.sweptAmount, i.asset)} from the deposit address but the ${i.asset} deposits it marked there add up to ${units(sum, i.asset)}`, ids);
    }
  }
  const moved = new Set(items.map((i) => key(i.sweepId, i.address, i.asset)));
  for (const m of marked) {
    if (sweeps.get(m.sweepId)?.status !== 'CONFIRMED' || moved.has(key(m.sweepId, m.address, m.asset))) continue;
    m.ids.forEach((paymentId, k) => add('sweep-mismatch', `The ${m.asset} deposit is marked swept by a sweep that did not move ${m.asset} from its address`, { paymentId, sweepId: m.sweepId, txHash: m.hashes[k]! }));
  }
}

/** A confirmed sweep's total is what its items flushed, each read from its Flushed event. */
function checkTotals(s: SweepRow, items: ItemRow[], add: Add): void {
  const ids = { sweepId: s.id, txHash: s.txHash };
  const unread = items.filter((i) => i.sweptWei === null).length;
  const flushed = items.reduce((sum, i) => sum.plus(dec(i.sweptWei)), dec(null));
  if (s.sweptWei === null) {
    add('sweep-mismatch', 'The sweep is CONFIRMED without the amount it swept', ids);
  } else if (unread > 0) {
    add('sweep-mismatch', `The sweep is CONFIRMED but ${unread} of its addresses have no amount flushed recorded`, ids);
  } else if (!dec(s.sweptWei).eq(flushed)) {
    add('sweep-mismatch', `The sweep records ${wei(s.sweptWei)} ETH swept but its addresses flushed ${wei(flushed)} ETH`, ids);
  }
}

/**
 * A sweep mined, but not shown to have paid the receiving address what its addresses
 * flushed (deposit-sweeper/sweeper-proof.ts): its deposits are not marked swept, and the ETH is
 * not where the books say. Named by each address, so their inflows wait for it too.
 */
function checkUnproven(s: SweepRow, items: ItemRow[], add: Add): void {
  for (const i of items) add('sweep-unproven', `The sweep is mined but not confirmed: ${s.reason}`, { sweepId: s.id, txHash: s.txHash, address: i.address });
}

/**
 * What each address of a confirmed sweep flushed equals what the sweep accounts for at that
 * address: the deposits it marked there (less what a flush in their own transaction moved
 * early), and the part of a deposit of its own transaction it moved early (`movedEarly`).
 * Less: ETH swept that the books never recorded; more: deposits marked swept whose ETH the
 * sweep did not move.
 */
function checkItems(sweeps: Map<string, SweepRow>, items: ItemRow[], marked: Map<string, MarkedRow>, movedEarly: Map<string, Prisma.Decimal>, add: Add): void {
  for (const i of items) {
    const sweep = sweeps.get(i.sweepId);
    const key = pair(i.sweepId, i.address);
    const sum = dec(marked.get(key)?.wei ?? null).plus(movedEarly.get(key) ?? 0);
    if (sweep?.status !== 'CONFIRMED' || i.sweptWei === null || dec(i.sweptWei).eq(sum)) continue;
    add('sweep-mismatch', `The sweep flushed ${wei(i.sweptWei)} ETH from the deposit address but the deposits it marked there add up to ${wei(sum)} ETH`, {
      sweepId: i.sweepId,
      address: i.address,
      txHash: sweep.txHash,
    });
  }
}

/**
 * Deposits marked swept by a sweep that is not CONFIRMED (sent, failed or dropped: their
 * ETH may still be at the address), or by one that did not sweep their address (or that
 * reached the receiving address).
 */
function checkMarked(sweeps: Map<string, SweepRow>, swept: Set<string>, marked: MarkedRow[], add: Add): void {
  for (const m of marked) {
    const status = sweeps.get(m.sweepId)?.status;
    m.ids.forEach((paymentId, k) => {
      const ids = { paymentId, sweepId: m.sweepId, txHash: m.hashes[k]! };
      if (status !== 'CONFIRMED') add('sweep-unconfirmed', `The deposit is marked swept by a sweep that is ${status}, not CONFIRMED`, ids);
      else if (!swept.has(pair(m.sweepId, m.address))) {
        add('sweep-mismatch', m.address ? 'The deposit is marked swept by a sweep that did not sweep its address' : 'A transfer to the receiving address is marked swept', ids);
      }
    });
  }
}

/** Confirmed sweeps within the window of recent blocks are still on the canonical chain at their height. */
async function checkOnChain(sc: SweepChain, confirmed: SweepRow[], add: Add): Promise<void> {
  const mined = confirmed.filter((s) => s.blockNumber !== null);
  if (mined.length === 0) return;
  const head = await sc.head();
  const from = sc.window === 'all' ? 0n : head - BigInt(sc.window);
  const recent = mined.filter((s) => (s.blockNumber as bigint) >= from);
  await readHashes({ chain: sc.chain }, sc.hashes, recent.map((s) => s.blockNumber as bigint), head);
  for (const s of recent) {
    const onChain = sc.hashes.get(s.blockNumber as bigint);
    if (onChain !== s.blockHash) {
      add('sweep-off-chain', `The confirmed sweep's block ${s.blockNumber} is ${onChain ? `now ${onChain}` : 'not on the chain'}, not ${s.blockHash}: its deposits are marked swept by a transaction the chain dropped`, {
        sweepId: s.id,
        txHash: s.txHash,
      });
    }
  }
}
