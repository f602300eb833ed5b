import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, Queue } from 'bullmq';
import { INDEXED_BLOCK_WINDOW, pruneRetained, queueNames } from '@shop/core';
import { createApiTestKit, type ApiTestKit } from '../../../api/src/testing/api-test-kit.ts';
import { retention } from './retention.ts';
import { scheduleRecurringJobs } from '../schedules.ts';

let kit: ApiTestKit;
beforeAll(async () => {
  kit = await createApiTestKit({ env: { WEBHOOK_RETENTION_DAYS: '90', SESSION_RETENTION_DAYS: '7', RECONCILE_RUNS_KEPT: '3' } });
});
afterAll(async () => {
  await kit?.close();
});

const DAY = 24 * 3600_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

async function event(id: string, createdAt: Date, deliveries: { endpointId: string; status: 'PENDING' | 'DELIVERED' | 'FAILED'; attempts?: number }[]) {
  await kit.db.webhookEvent.create({ data: { id, type: 'order.paid', subject: `order:${id}`, payload: {}, createdAt } });
  const { seq } = await kit.db.webhookEvent.findUniqueOrThrow({ where: { id } });
  for (const d of deliveries) {
    const row = await kit.db.webhookDelivery.create({ data: { eventId: id, endpointId: d.endpointId, subject: `order:${id}`, seq, status: d.status, createdAt } });
    for (let i = 0; i < (d.attempts ?? 1); i++) await kit.db.webhookAttempt.create({ data: { deliveryId: row.id, at: createdAt, statusCode: 500, durationMs: 5 } });
  }
}

describe('retention', () => {
  it('deletes, a batch at a time, old finished webhooks, ended sessions, old reconciliation runs and blocks no reorg needs; keeps what is recent or open', async () => {
    const { db } = kit;
    const [a, b] = await Promise.all(
      ['https://a.example.com/', 'https://b.example.com/'].map((url) => db.webhookEndpoint.create({ data: { url, secret: 'whsec_x', events: ['order.paid'] } })),
    );
    await event('msg_old_delivered', ago(100), [{ endpointId: a!.id, status: 'DELIVERED', attempts: 3 }]);
    await event('msg_old_failed', ago(100), [{ endpointId: a!.id, status: 'FAILED', attempts: 2 }]);
    await event('msg_old_nobody', ago(100), []);
    // An old event one endpoint still waits for: its pending delivery and the event stay, the other endpoint's delivered one goes.
    await event('msg_old_half', ago(95), [{ endpointId: a!.id, status: 'DELIVERED' }, { endpointId: b!.id, status: 'PENDING', attempts: 2 }]);
    await event('msg_old_pending', ago(120), [{ endpointId: b!.id, status: 'PENDING' }]);
    await event('msg_recent', ago(10), [{ endpointId: a!.id, status: 'DELIVERED' }, { endpointId: b!.id, status: 'FAILED' }]);

    const user = await kit.createUser();
    const session = (expiresAt: Date, revokedAt: Date | null = null) => db.session.create({ data: { userId: user.id, createdAt: ago(40), expiresAt, revokedAt } });
    const expiredLongAgo = await session(ago(10));
    const expiredLately = await session(ago(3));
    const live = await session(new Date(Date.now() + 20 * DAY));
    const revokedLongAgo = await session(new Date(Date.now() + 20 * DAY), ago(10));
    const revokedLately = await session(new Date(Date.now() + 20 * DAY), ago(1));

    // Six runs: the oldest is the only audit (kept: the latest of its scope), then five of changes.
    for (let i = 6; i >= 1; i--) {
      await db.reconciliationRun.create({
        data: { startedAt: ago(i), createdAt: ago(i), durationMs: 1, discrepancies: [], checked: {}, scope: i === 6 ? 'audit' : 'changes' },
      });
    }

    const head = 10_000n;
    const { chainId } = kit.env.config;
    await db.chainCursor.create({ data: { chainId, blockNumber: head, blockHash: '0x01' } });
    const keep = BigInt(Math.max(Number(INDEXED_BLOCK_WINDOW), kit.env.config.finalityDepth));
    await db.indexedBlock.createMany({ data: Array.from({ length: 300 }, (_, i) => ({ chainId, number: head - BigInt(i), hash: `0x${i}`, parentHash: `0x${i + 1}` })) });
    // Another chain's blocks at the same heights, a chain with no checkpoint: kept.
    const other = chainId + 1;
    await db.indexedBlock.createMany({ data: Array.from({ length: 3 }, (_, i) => ({ chainId: other, number: head - 299n + BigInt(i), hash: `0xa${i}`, parentHash: `0xa${i + 1}` })) });

    // Security notices: sent long ago (go), never sent and long given up (go), sent lately (stay).
    const notice = (createdAt: Date, sentAt: Date | null) => db.securityNotice.create({ data: { userId: user.id, kind: 'PASSWORD_CHANGED', email: user.email, createdAt, sentAt } });
    await notice(ago(30), ago(30));
    await notice(ago(20), null);
    const recentNotice = await notice(ago(2), ago(2));

    const result = await pruneRetained(kit.env.runtime, { batch: 2 });

    const events = (await db.webhookEvent.findMany({ select: { id: true } })).map((e) => e.id).sort();
    expect(events).toEqual(['msg_old_half', 'msg_old_pending', 'msg_recent']);
    const deliveries = await db.webhookDelivery.findMany({ select: { eventId: true, status: true } });
    expect(deliveries.map((d) => `${d.eventId} ${d.status}`).sort()).toEqual([
      'msg_old_half PENDING',
      'msg_old_pending PENDING',
      'msg_recent DELIVERED',
      'msg_recent FAILED',
    ]);
    // The attempts of what was deleted went with it; those of a pending delivery stay.
    expect(await db.webhookAttempt.count()).toBe(2 + 1 + 1 + 1);
    expect(result.webhookDeliveries).toBe(3);
    expect(result.webhookEvents).toBe(3);

    const sessions = (await db.session.findMany({ select: { id: true } })).map((s) => s.id).sort();
    expect(sessions).toEqual([expiredLately.id, live.id, revokedLately.id].sort());
    expect(sessions).not.toContain(expiredLongAgo.id);
    expect(sessions).not.toContain(revokedLongAgo.id);
    expect(result.sessions).toBe(2);

    const runs = await db.reconciliationRun.findMany({ orderBy: { createdAt: 'asc' }, select: { scope: true, createdAt: true } });
    expect(runs.map((r) => r.scope)).toEqual(['audit', 'changes', 'changes', 'changes']);
    expect(result.reconciliationRuns).toBe(2);

    const blocks = await db.indexedBlock.findMany({ where: { chainId }, select: { number: true }, orderBy: { number: 'asc' } });
    expect(blocks[0]?.number).toBe(head - keep);
    expect(blocks).toHaveLength(Number(keep) + 1);
    expect(result.indexedBlocks).toBe(300 - Number(keep) - 1);
    expect(await db.indexedBlock.count({ where: { chainId: other } }), "another chain's blocks at the same heights").toBe(3);

    expect((await db.securityNotice.findMany({ select: { id: true } })).map((n) => n.id)).toEqual([recentNotice.id]);
    expect(result.securityNotices).toBe(2);

    // A second run finds nothing more to do.
    expect(await pruneRetained(kit.env.runtime, { batch: 2 })).toEqual({
      webhookDeliveries: 0, webhookEvents: 0, sessions: 0, passwordResets: 0, securityNotices: 0, cancelLinks: 0, reconciliationRuns: 0, indexedBlocks: 0,
    });
  });

  it('runs as a worker job, scheduled with the other recurring jobs', async () => {
    const { runtime } = kit.env;
    await scheduleRecurringJobs(runtime);
    const schedulers = await runtime.queues.retention.getJobSchedulers();
    expect(schedulers.map((s) => ({ key: s.key, every: s.every }))).toEqual([{ key: 'retention', every: runtime.config.retentionIntervalMs }]);
    // Nothing runs them here (no worker): take them away again.
    for (const name of queueNames) {
      const queue = runtime.queues[name] as Queue;
      for (const s of await queue.getJobSchedulers()) await queue.removeJobScheduler(s.key);
    }
    const done = await retention({ data: {} } as Job<Record<string, never>>, { runtime, logger: runtime.logger });
    expect(done).toMatchObject({ webhookDeliveries: 0, sessions: 0 });
  });
});
