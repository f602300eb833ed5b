import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreTestKit, type CoreTestKit } from '../../../scripts/testing/core-kit.ts';
import { recordingDb } from '../../../scripts/testing/query-plans.ts';
import { createSession, createSessionReader, revokeSession } from './sessions.ts';

let kit: CoreTestKit;
beforeAll(async () => {
  kit = await createCoreTestKit();
});
afterAll(async () => {
  await kit?.close();
});

describe('the session reader', () => {
  it('answers each of the lookups that arrive together with its own user, or null for a revoked session or another user, in one query each round', async () => {
    const [a, b] = [await kit.createUser(), await kit.createUser()];
    const sa = await createSession(kit.db, a.id, 1);
    const sb = await createSession(kit.db, b.id, 1);
    const revoked = await createSession(kit.db, b.id, 1);
    await revokeSession(kit.db, revoked.id);
    const rec = recordingDb(kit.env.config.databaseUrl);
    try {
      const reader = createSessionReader(rec.db);
      const found = await Promise.all([
        reader.find(sa.id, a.id),
        reader.find(sb.id, b.id),
        reader.find(revoked.id, b.id),
        reader.find(sa.id, b.id),
        reader.find(sb.id, b.id),
      ]);
      expect(found.map((u) => u?.id ?? null)).toEqual([a.id, b.id, null, null, b.id]);
      expect(found[0]).toMatchObject({ email: a.email, isAdmin: false, twoFactor: false });
      // The first lookup went alone; the four that arrived while it was out, together.
      expect(rec.queries.filter((q) => q.sql.includes('"Session"'))).toHaveLength(2);
    } finally {
      await rec.close();
    }
  });
});
