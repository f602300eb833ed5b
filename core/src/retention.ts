import type { AppConfig } from './infra/config.ts';
import type { Db } from './infra/db.ts';
import { INDEXED_BLOCK_WINDOW } from './chain/follower.ts';
import { pruneCancelLinks } from './books/cashout-holds.ts';
import { prunePasswordResets } from './accounts/password-reset.ts';
import { pruneSecurityNotices } from './accounts/security-notices.ts';
import { pruneSessions } from './accounts/sessions.ts';

const DAY = 24 * 3600_000;
/** Rows of the table walked per statement: short statements, short locks, a steady log. */
export const RETENTION_BATCH = 5_000;
/**
 * An old event takes its deliveries (one per endpoint that wanted it) and their attempts
 * with it: events go a fifth of a batch at a time, about a batch of rows a statement.
 */
const EVENTS_PER_BATCH = 5;

export type RetentionResult = {
  /** Delivered and failed deliveries deleted, with their attempts. */
  webhookDeliveries: number;
  webhookEvents: number;
  sessions: number;
  passwordResets: number;
  /** Security e-mails' notices and new wallets' cancel links. */
  securityNotices: number;
  cancelLinks: number;
  reconciliationRuns: number;
  indexedBlocks: number;
};

type Deps = { db: Db; config: Pick<AppConfig, 'webhookRetentionDays' | 'sessionRetentionDays' | 'reconcileRunsKept' | 'finalityDepth'> };

/**
 * Deletes what the shop keeps no longer, so its tables grow with its recent work and
 * not with its age: webhook events older than WEBHOOK_RETENTION_DAYS with their
 * delivered and failed deliveries and those deliveries' attempts, sessions ended more
 * than SESSION_RETENTION_DAYS ago (and reset links, security notices and new wallets'
 * cancel links as old), reconciliation reports beyond the newest
 * RECONCILE_RUNS_KEPT, and indexed blocks further behind the checkpoint than a reorg is
 * walked back. Each statement deletes at most `batch` rows of the table it walks; it
 * loops until nothing is left, and a rerun finds nothing to do.
 */
export async function pruneRetained(deps: Deps, opts: { now?: Date; batch?: number } = {}): Promise<RetentionResult> {
  const now = opts.now ?? new Date();
  const batch = opts.batch ?? RETENTION_BATCH;
  const { db, config } = deps;
  const webhooks = await pruneWebhooks(db, new Date(now.getTime() - config.webhookRetentionDays * DAY), batch);
  return {
    ...webhooks,
    sessions: await pruneSessions(db, { retentionDays: config.sessionRetentionDays, batch }, now),
    // Reset links (a handful a day) end with the sessions' window.
    passwordResets: await prunePasswordResets(db, config.sessionRetentionDays, now),
    // Security notices and cancel links (a few a day per active user) too.
    securityNotices: await pruneSecurityNotices(db, config.sessionRetentionDays, batch, now),
    cancelLinks: await pruneCancelLinks(db, config.sessionRetentionDays, now),
    reconciliationRuns: await pruneReconciliationRuns(db, config.reconcileRunsKept, batch),
    indexedBlocks: await pruneIndexedBlocks(db, config.finalityDepth, batch),
  };
}

/**
 * Old events a batch at a time, oldest first (WebhookEvent(createdAt), a keyset so each
 * is read once a run): their finished deliveries go (the attempts go with them, by the
 * foreign key's cascade), then each event left with no delivery. A PENDING delivery is never deleted, whatever
 * its age (its attempts and event stay with it): the status is checked by the DELETE
 * itself, so one an admin redelivers meanwhile is left alone.
 */
async function pruneWebhooks(db: Db, cutoff: Date, rows: number): Promise<Pick<RetentionResult, 'webhookDeliveries' | 'webhookEvents'>> {
  const batch = Math.max(1, Math.floor(rows / EVENTS_PER_BATCH));
  let webhookDeliveries = 0;
  let webhookEvents = 0;
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const from: { createdAt: Date; id: string } = after ?? { createdAt: new Date(0), id: '' };
    const events = await db.$queryRaw<{ id: string; createdAt: Date }[]>`
      SELECT "id", "createdAt" FROM "WebhookEvent"
      WHERE "createdAt" < ${cutoff} AND "createdAt" >= ${from.createdAt} AND ("createdAt", "id") > (${from.createdAt}::timestamptz, ${from.id})
      ORDER BY "createdAt", "id" LIMIT ${batch}`;
    if (events.length === 0) break;
    const ids = events.map((e) => e.id);
    webhookDeliveries += await db.$executeRaw`
      DELETE FROM "WebhookDelivery" WHERE "eventId" = ANY(${ids}::text[]) AND "status" <> 'PENDING'`;
    webhookEvents += await db.$executeRaw`
      DELETE FROM "WebhookEvent" e WHERE e."id" = ANY(${ids}::text[])
        AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = e."id")`;
    const last = events[events.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
    if (events.length < batch) break;
  }
  return { webhookDeliveries, webhookEvents };
}

/**
 * The newest `kept` reports stay (ReconciliationRun(createdAt)), and the newest of each
 * scope whatever its age: the reconciler starts its next changes-only run from the
 * previous one, and the admin page and metrics read the latest.
 */
async function pruneReconciliationRuns(db: Db, kept: number, batch: number): Promise<number> {
  const [boundary] = await db.$queryRaw<{ createdAt: Date }[]>`
    SELECT "createdAt" FROM "ReconciliationRun" ORDER BY "createdAt" DESC OFFSET ${kept - 1} LIMIT 1`;
  if (!boundary) return 0;
  const latest = (await db.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT ON ("scope") "id" FROM "ReconciliationRun" ORDER BY "scope", "createdAt" DESC`).map((r) => r.id);
  let pruned = 0;
  for (;;) {
    const n = await db.$executeRaw`
      DELETE FROM "ReconciliationRun" WHERE "id" = ANY(ARRAY(
        SELECT "id" FROM "ReconciliationRun" WHERE "createdAt" < ${boundary.createdAt} AND "id" <> ALL(${latest}::uuid[])
        ORDER BY "createdAt" LIMIT ${batch}))`;
    pruned += n;
    if (n < batch) break;
  }
  return pruned;
}

/**
 * Blocks more than max(INDEXED_BLOCK_WINDOW, FINALITY_DEPTH) behind their chain's
 * checkpoint: a rewind walks back at most FINALITY_DEPTH blocks (deeper, the indexer
 * halts), and the indexer keeps INDEXED_BLOCK_WINDOW itself. A chain with no checkpoint
 * keeps its blocks.
 */
async function pruneIndexedBlocks(db: Db, finalityDepth: number, batch: number): Promise<number> {
  const cursors = await db.chainCursor.findMany({ select: { chainId: true, blockNumber: true } });
  const keep = INDEXED_BLOCK_WINDOW > BigInt(finalityDepth) ? INDEXED_BLOCK_WINDOW : BigInt(finalityDepth);
  let pruned = 0;
  for (const cursor of cursors) {
    const below = cursor.blockNumber - keep;
    for (;;) {
      const n = await db.$executeRaw`
        DELETE FROM "IndexedBlock" WHERE "chainId" = ${cursor.chainId} AND "number" = ANY(ARRAY(
          SELECT "number" FROM "IndexedBlock" WHERE "chainId" = ${cursor.chainId} AND "number" < ${below} ORDER BY "number" LIMIT ${batch}))`;
      pruned += n;
      if (n < batch) break;
    }
  }
  return pruned;
}
