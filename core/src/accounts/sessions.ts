import { Prisma, type Db } from '../infra/db.ts';

/**
 * Server-side sessions. The cookie's token names a Session row; a request is signed in
 * only while that row is neither revoked nor expired and its user not deleted, so ending
 * a session on the server ends it everywhere the token was copied to.
 */
type Client = Db | Prisma.TransactionClient;

/** `signedInAt`: when the session opened (a second factor given at sign-in has `stepUpAt` equal to it). */
export type SessionUserRow = { id: string; name: string; email: string; isAdmin: boolean; twoFactor: boolean; stepUpAt: Date | null; signedInAt: Date };

/** A new session; `stepUp`: opened with a second factor (it counts as one given now). */
export async function createSession(db: Client, userId: string, days: number, now = new Date(), opts: { stepUp?: boolean } = {}): Promise<{ id: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + days * 24 * 3600_000);
  return db.session.create({ data: { userId, expiresAt, createdAt: now, ...(opts.stepUp ? { stepUpAt: now } : {}) }, select: { id: true, expiresAt: true } });
}

/** Notes a second factor given now in this session (a step-up). */
export async function markStepUp(db: Client, sessionId: string, now = new Date()): Promise<void> {
  await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { stepUpAt: now } });
}

/**
 * The user of a live session, or null: one query, on every signed-in request (written
 * as SQL: the query builder's own work per call cost more than the query itself).
 */
export async function findSessionUser(db: Client, sessionId: string, userId: string, now = new Date()): Promise<SessionUserRow | null> {
  return (await findSessionUsers(db, [{ sessionId, userId }], now))[0]!;
}

export type SessionKey = { sessionId: string; userId: string };

/** The users of several live sessions in one query: per key asked, its user or null. */
export async function findSessionUsers(db: Client, keys: SessionKey[], now = new Date()): Promise<(SessionUserRow | null)[]> {
  const rows = await db.$queryRaw<(SessionUserRow & { at: bigint })[]>`
    SELECT k."at", u."id", u."name", u."email", u."isAdmin", s."stepUpAt", s."createdAt" AS "signedInAt",
           (u."totpEnabledAt" IS NOT NULL OR EXISTS (SELECT 1 FROM "Passkey" p WHERE p."userId" = u."id")) AS "twoFactor"
    FROM unnest(${keys.map((k) => k.sessionId)}::uuid[], ${keys.map((k) => k.userId)}::uuid[]) WITH ORDINALITY AS k("sessionId", "userId", "at")
    JOIN "Session" s ON s."id" = k."sessionId" AND s."userId" = k."userId"
    JOIN "User" u ON u."id" = s."userId"
    WHERE s."revokedAt" IS NULL AND s."expiresAt" > ${now} AND u."deletedAt" IS NULL`;
  const found: (SessionUserRow | null)[] = keys.map(() => null);
  for (const { at, ...user } of rows) found[Number(at) - 1] = user;
  return found;
}

/**
 * One api process's session reader: lookups that arrive while one query is out wait and
 * go together in the next (sessions arriving together are read in one query, as the
 * order desk places orders); alone, a lookup is sent at once. A query that fails fails
 * every lookup in it, as each would have failed alone.
 */
export function createSessionReader(db: Client, opts: { maxBatch?: number } = {}) {
  const maxBatch = opts.maxBatch ?? 100;
  type Waiting = SessionKey & { resolve: (u: SessionUserRow | null) => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  let running = false;
  async function drain(): Promise<void> {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(maxBatch);
      await findSessionUsers(db, batch).then(
        (users) => users.forEach((u, i) => batch[i]!.resolve(u)),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      );
    }
    running = false;
  }
  return {
    find(sessionId: string, userId: string): Promise<SessionUserRow | null> {
      return new Promise((resolve, reject) => {
        waiting.push({ sessionId, userId, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}
export type SessionReader = ReturnType<typeof createSessionReader>;

export async function revokeSession(db: Client, sessionId: string, now = new Date()): Promise<void> {
  await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
}

/** Ends every live session of the user, but `except` (the one making the change). */
export async function revokeUserSessions(db: Client, userId: string, opts: { except?: string; now?: Date } = {}): Promise<number> {
  const ended = await db.session.updateMany({
    where: { userId, revokedAt: null, ...(opts.except ? { id: { not: opts.except } } : {}) },
    data: { revokedAt: opts.now ?? new Date() },
  });
  return ended.count;
}

/**
 * Forgets sessions that ended (expired, or revoked) more than `retentionDays` ago, `batch`
 * rows a statement (Session(expiresAt), and x_session_revoked for the revoked ones), so
 * no statement holds locks or bloats the log for long. Run by the retention job.
 */
export async function pruneSessions(db: Db, opts: { retentionDays: number; batch: number }, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - opts.retentionDays * 24 * 3600_000);
  let pruned = 0;
  const ended = [
    { where: Prisma.sql`"expiresAt" < ${cutoff}`, order: Prisma.sql`"expiresAt"` },
    { where: Prisma.sql`"revokedAt" IS NOT NULL AND "revokedAt" < ${cutoff}`, order: Prisma.sql`"revokedAt"` },
  ];
  for (const { where, order } of ended) {
    for (;;) {
      // The ids first (an array), then the rows by their key: `IN (subquery)` would be
      // planned as a join that scans the whole table.
      const n = await db.$executeRaw`
        DELETE FROM "Session" WHERE "id" = ANY(ARRAY(SELECT "id" FROM "Session" WHERE ${where} ORDER BY ${order} LIMIT ${opts.batch}))`;
      pruned += n;
      if (n < opts.batch) break;
    }
  }
  return pruned;
}
