import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { AUDIT_GENESIS, auditHash, recordAudit, verifyAuditChain } from './audit.ts';
import { reconcile, runReconciliation } from '../reconcile/reconcile.ts';

/**
 * The audit log as a hash chain: entries appended one at a time, each naming the hash of
 * the one before; the database refuses to change or remove them; and whatever gets past
 * the database (a superuser without triggers) breaks the chain, which the reconciler reports.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

const ctx = { actor: { id: '00000000-0000-4000-8000-000000000001', email: 'admin@example.com' }, ip: '203.0.113.7', userAgent: 'test' };
const chainBreaks = async () => (await reconcile(env.runtime, { chain: false })).discrepancies.filter((d) => d.check === 'audit-chain');

/** Runs `sql` with triggers off, as a superuser tampering with the table would. */
async function tamper(sql: string): Promise<void> {
  await env.runtime.db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
    await tx.$executeRawUnsafe(sql);
  });
}

describe('the audit log', () => {
  it('chains entries in one order, even when written at the same moment, and keeps before and after as given', async () => {
    const { db } = env.runtime;
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        recordAudit(db, ctx, { action: 'user.update', subject: { type: 'user', id: `u${i}` }, before: { activeBalance: '1.00', z: 1, a: { y: 2, b: 3 } }, after: { activeBalance: `${i}.00` } }),
      ),
    );
    const rows = await db.auditEntry.findMany({ orderBy: { seq: 'asc' } });
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 25 }, (_, i) => BigInt(i + 1)));
    expect(rows[0]!.prevHash).toBe(AUDIT_GENESIS);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prevHash).toBe(rows[i - 1]!.hash);
    // Read back from jsonb (keys reordered), the hash is still the hash written.
    for (const r of rows) expect(auditHash(r)).toBe(r.hash);
    expect(rows[0]!.before).toEqual({ activeBalance: '1.00', z: 1, a: { y: 2, b: 3 } });
    expect(await verifyAuditChain(db, { batchSize: 7 })).toMatchObject({ checked: 25, breaks: [] });
    expect(await chainBreaks()).toEqual([]);
  });

  it('is refused UPDATE, DELETE and TRUNCATE by the database', async () => {
    const { db } = env.runtime;
    await recordAudit(db, ctx, { action: 'user.delete', subject: { type: 'user', id: 'x' } });
    await expect(db.$executeRaw`UPDATE "AuditEntry" SET "action" = 'user.login' WHERE "seq" = 1`).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`DELETE FROM "AuditEntry" WHERE "seq" = 1`).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`TRUNCATE "AuditEntry"`).rejects.toThrow(/append-only/);
    await expect(db.auditEntry.update({ where: { seq: 1n }, data: { ip: '198.51.100.1' } })).rejects.toThrow(/append-only/);
    expect((await db.auditEntry.findUniqueOrThrow({ where: { seq: 1n } })).action).toBe('user.update');
  });

  it('an entry changed by hand past the database is reported by the audit and by every scheduled run until it is put back', async () => {
    const { db } = env.runtime;
    await runReconciliation(env.runtime, { chain: false });
    const original = await db.auditEntry.findUniqueOrThrow({ where: { seq: 3n } });
    await tamper(`UPDATE "AuditEntry" SET "after" = '{"activeBalance": "9999.00"}' WHERE "seq" = 3`);
    expect(await chainBreaks()).toEqual([{ check: 'audit-chain', message: 'Audit entry 3 was changed after it was written (its hash differs)', ids: { auditSeq: '3' } }]);
    // The scheduled run reads only new entries, but not while a break is open.
    const audit = await runReconciliation(env.runtime, { chain: false });
    expect(audit.discrepancies.map((d) => d.check)).toContain('audit-chain');
    const scheduled = await runReconciliation(env.runtime, { chain: false, scope: 'changes' });
    expect(scheduled.discrepancies.map((d) => d.ids.auditSeq)).toEqual(['3']);
    await tamper(`UPDATE "AuditEntry" SET "after" = '${JSON.stringify(original.after)}' WHERE "seq" = 3`);
    expect((await runReconciliation(env.runtime, { chain: false, scope: 'changes' })).discrepancies).toEqual([]);
  });

  it('an entry removed from the middle, and entries cut from the end, are reported', async () => {
    const { db } = env.runtime;
    const head = await runReconciliation(env.runtime, { chain: false });
    expect(head.checked['audit head']).toMatch(/^26:[0-9a-f]{64}$/);
    const saved = await db.auditEntry.findMany({ where: { seq: { in: [10n, 26n] } } });
    await tamper(`DELETE FROM "AuditEntry" WHERE "seq" IN (10, 26)`);
    const found = (await runReconciliation(env.runtime, { chain: false })).discrepancies.filter((d) => d.check === 'audit-chain');
    expect(found.map((d) => d.message)).toEqual([
      'Audit entry 10 is missing',
      'Audit entry 26, the last one the previous report saw, is gone',
    ]);
    // Put back as they were: the chain is whole again.
    for (const row of saved) {
      await tamper(
        `INSERT INTO "AuditEntry" ("id","seq","at","actorId","actorEmail","action","subjectType","subjectId","before","after","ip","userAgent","prevHash","hash")
         SELECT * FROM json_populate_record(NULL::"AuditEntry", '${JSON.stringify({ ...row, seq: row.seq.toString() })}')`,
      );
    }
    expect(await chainBreaks()).toEqual([]);
  });
});
