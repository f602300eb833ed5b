import { verifyAuditChain } from '../events/audit.ts';
import { Prisma, type Db } from '../infra/db.ts';
import type { Add } from './subjects.ts';

/**
 * The reconciler's checks across subjects: the same ETH twice (an inflow and the traced
 * transfer that explains it), one payout transaction accepted twice, a tag held twice,
 * and the audit log's hash chain. `scoped`: the scheduled run's start of changes (the
 * audit passes none and looks at everything).
 */

/**
 * The same ETH twice: an inflow recorded for a block while it could not be traced, and a
 * transfer through a contract in that block found by tracing later (a node that gained
 * tracing, workers on differently able nodes). An admin must not refund the inflow too.
 * Inflows are rare; the join reads them by their status and block hash. The scheduled
 * run looks only in the blocks of transfers changed since (Payment(updatedAt), then
 * Payment(blockHash)): "either side changed" as an OR across the join was a scan.
 */
export async function checkInflowsTraced(db: Db, scoped: Date | undefined, add: Add): Promise<void> {
  const doubled = await db.$queryRaw<{ inflowId: string; paymentId: string; blockNumber: bigint }[]>`
    SELECT i."id" AS "inflowId", p."id" AS "paymentId", i."blockNumber"
    FROM "Payment" i JOIN "Payment" p ON p."blockHash" = i."blockHash" AND p."source" <> 'INFLOW' AND p."viaContract"
      AND p."depositAddress" IS NOT DISTINCT FROM i."depositAddress"
    WHERE i."source" = 'INFLOW' AND i."status" IN ('UNRESOLVED', 'REFUNDED') AND p."status" IN ('COUNTED', 'UNRESOLVED', 'LATE')
      AND p."explainsInflowOf" IS DISTINCT FROM i."blockHash"
      ${scoped ? Prisma.sql`AND i."blockHash" IN (SELECT "blockHash" FROM "Payment" WHERE "updatedAt" > ${scoped} AND "blockHash" IS NOT NULL)` : Prisma.empty}`;
  for (const d of doubled) {
    add('inflow-also-traced', `Block ${d.blockNumber}'s unexplained inflow may be the transfer later found through a contract in it: settle one of them, not both`, {
      inflowId: d.inflowId,
      paymentId: d.paymentId,
    });
  }
}

/** No transaction accepted for two payouts (in the scheduled run: the hashes accepted since). */
export async function checkPayoutHashes(db: Db, scoped: Date | undefined, add: Add): Promise<void> {
  const reused = await db.$queryRaw<{ txHash: string; n: bigint }[]>`
    SELECT lower("txHash") AS "txHash", COUNT(*) AS n FROM "PayoutCheck" WHERE "status" = 'ACCEPTED'
    ${scoped ? Prisma.sql`AND lower("txHash") IN (SELECT lower("txHash") FROM "PayoutCheck" WHERE "updatedAt" > ${scoped} AND "status" = 'ACCEPTED')` : Prisma.empty}
    GROUP BY lower("txHash") HAVING COUNT(*) > 1`;
  for (const r of reused) add('payout-hash-twice', `One transaction was accepted for ${r.n} payouts`, { txHash: r.txHash });
}

/** Tags: only live orders hold one (a partial index holds just those). */
export async function checkTags(db: Db, add: Add): Promise<void> {
  const tags = await db.$queryRaw<{ tag: number; ids: string[] }[]>`
    SELECT "paymentTag" AS tag, array_agg("id"::text) AS ids FROM "Order" WHERE "paymentTag" IS NOT NULL GROUP BY "paymentTag" HAVING COUNT(*) > 1`;
  for (const t of tags) add('tag-twice', `Tag ${t.tag} is held by ${t.ids.length} orders`, { orderIds: t.ids.join(',') });
}

/**
 * The audit log's hash chain: the whole chain in the audit, the entries since the
 * previous report's head in the scheduled run. Either way the head the previous report
 * saw must still be there, unchanged: entries cut from the end of the log show there.
 */
export async function checkAuditLog(db: Db, from: string | undefined, previousHead: string | undefined, add: Add, checked: Record<string, number | string>): Promise<void> {
  const head = parseHead(previousHead);
  const result = await verifyAuditChain(db, { fromSeq: from ? parseHead(from)?.seq : undefined });
  for (const b of result.breaks) add('audit-chain', b.message, { auditSeq: b.seq });
  if (head) {
    const seen = await db.auditEntry.findUnique({ where: { seq: head.seq }, select: { hash: true } });
    if (seen?.hash !== head.hash) {
      add('audit-chain', `Audit entry ${head.seq}, the last one the previous report saw, ${seen ? 'was changed' : 'is gone'}`, { auditSeq: head.seq.toString() });
    }
  }
  checked['audit entries'] = result.checked;
  const last = result.head ?? head;
  if (last) checked['audit head'] = `${last.seq}:${last.hash}`;
}

function parseHead(raw: string | undefined): { seq: bigint; hash: string } | null {
  const m = /^(\d{1,19}):([0-9a-f]{64})$/.exec(raw ?? '');
  return m ? { seq: BigInt(m[1]!), hash: m[2]! } : null;
}

