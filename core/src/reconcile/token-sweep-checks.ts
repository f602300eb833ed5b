import { formatUnits, type Hash } from 'viem';
import { Prisma, type Db } from '../infra/db.ts';
import { tokenBalanceAfter } from '../chain/rpc.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { transferLogsInBlock } from '../rails/erc20/logs.ts';
import type { Add } from './subjects.ts';
import type { SweepChain } from './sweep-checks.ts';

/**
 * The receiving address's token balance against the token sweeps the books confirmed
 * (deposit-sweeper/token-sweep-marks.ts): in the block of each confirmed token sweep within
 * the window of recent blocks, the receiving address's balance of each token rose, with
 * what it sent in that block (its own Transfer logs out), by at least what every token
 * sweep of that block says it moved there. Less is 'sweep-unproven': the books hold
 * tokens swept to the receiving address that did not reach it. More is not a finding:
 * anyone may send the receiving address tokens, and its owner spends from it, so its
 * balance over time is not the shop's books; the block of a sweep is where they meet.
 * Read at the block's hash and its parent's; a node that no longer keeps that state is
 * not asked again (nothing found). A sweep whose block left the chain is sweep-checks.ts's.
 */
type TokenSweepRow = { id: string; txHash: string; blockNumber: bigint | null; blockHash: string | null };

export async function checkTokenArrivals(db: Db, sc: SweepChain, sweeps: TokenSweepRow[], add: Add): Promise<void> {
  const mined = sweeps.filter((s) => s.blockNumber !== null && s.blockHash !== null);
  if (mined.length === 0) return;
  const head = await sc.head();
  const from = sc.window === 'all' ? 0n : head - BigInt(sc.window);
  const recent = mined.filter((s) => (s.blockNumber as bigint) >= from && (sc.hashes.get(s.blockNumber as bigint) ?? s.blockHash) === s.blockHash);
  if (recent.length === 0) return;
  const hashes = [...new Set(recent.map((s) => s.blockHash as string))];
  const moved = await db.$queryRaw<{ blockHash: string; asset: TokenSymbol; amount: Prisma.Decimal | null }[]>`
    SELECT s."blockHash", i."asset"::text AS asset, SUM(i."sweptAmount") AS amount
    FROM "DepositSweep" s JOIN "DepositSweepItem" i ON i."sweepId" = s."id"
    WHERE s."blockHash" = ANY(${hashes}::text[]) AND s."status" = 'CONFIRMED' AND s."kind" = 'TOKENS' AND i."asset" <> 'ETH'
    GROUP BY s."blockHash", i."asset"`;
  const receiving = sc.receiving.toLowerCase();
  for (const m of moved) {
    const swept = BigInt((m.amount ?? new Prisma.Decimal(0)).toFixed(0));
    if (swept === 0n) continue;
    const token = tokenBySymbol(m.asset);
    const block = await sc.chain.getBlock({ blockHash: m.blockHash as Hash });
    const [before, after, logs] = await Promise.all([
      tokenBalanceAfter(sc.chain, token.address, receiving, block.parentHash),
      tokenBalanceAfter(sc.chain, token.address, receiving, m.blockHash as Hash),
      transferLogsInBlock(sc.chain, token.address, m.blockHash as Hash),
    ]);
    if (before === null || after === null) continue; // the node no longer keeps that state
    const sent = logs.filter((t) => t.from === receiving).reduce((sum, t) => sum + t.amount, 0n);
    const rose = after - before + sent;
    if (rose >= swept) continue;
    const units = (v: bigint) => `${formatUnits(v, token.decimals)} ${m.asset}`;
    const message = `The receiving address's ${m.asset} rose ${units(rose)} in block ${block.number} (with what it sent), less than the ${units(swept)} the token sweeps of that block moved there`;
    for (const s of recent.filter((x) => x.blockHash === m.blockHash)) add('sweep-unproven', message, { sweepId: s.id, txHash: s.txHash, asset: m.asset });
  }
}
