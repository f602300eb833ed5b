import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { AuditAction } from '../contract/audit.ts';
import { Prisma, type Db } from '../infra/db.ts';

/**
 * The audit log: who did what, to what, from where. Entries are appended in one order
 * (`seq`), each carrying the hash of the entry before it, so the log is a hash chain:
 * an entry changed, removed or slipped in by hand no longer matches its own hash or its
 * successor's `prevHash`. The database refuses UPDATE, DELETE and TRUNCATE on the table;
 * the reconciler walks the chain (`verifyAuditChain`).
 *
 * Appending takes a transaction-scoped advisory lock, so entries are numbered and
 * chained one at a time; written inside the transaction of the action it records, the
 * entry commits or rolls back with it (an action is never without its entry).
 */
type Client = Db | Prisma.TransactionClient;

export type AuditActor = { id: string; email: string } | null;
/** Where a request came from, as the api saw it. */
export type AuditOrigin = { ip?: string | null; userAgent?: string | null };
export type AuditContext = { actor: AuditActor } & AuditOrigin;

export type AuditEvent = {
  action: AuditAction;
  subject?: { type: string; id: string } | null;
  before?: AuditValue;
  after?: AuditValue;
};
export type AuditValue = Prisma.InputJsonObject | null | undefined;

export { AUDIT_ACTIONS, type AuditAction } from '../contract/audit.ts';

/** The `prevHash` of the first entry. */
export const AUDIT_GENESIS = '0'.repeat(64);
/** Any constant of our own: the key of the advisory lock that orders appends. */
const AUDIT_LOCK = 7_340_021;

type HashedFields = {
  seq: bigint;
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  userAgent: string | null;
  prevHash: string;
};

/**
 * The hash of an entry: SHA-256 of the RFC 8785 canonical JSON of its fields (keys
 * sorted, numbers and strings in one spelling), so it is the same whether the entry is
 * hashed as written or as read back from jsonb, which reorders keys.
 */
export function auditHash(e: HashedFields): string {
  const text = canonicalize({
    seq: e.seq.toString(),
    at: e.at.toISOString(),
    actorId: e.actorId,
    actorEmail: e.actorEmail,
    action: e.action,
    subjectType: e.subjectType,
    subjectId: e.subjectId,
    before: e.before ?? null,
    after: e.after ?? null,
    ip: e.ip,
    userAgent: e.userAgent,
    prevHash: e.prevHash,
  });
  return createHash('sha256').update(text!).digest('hex');
}

/** `s` with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, which this TypeScript lib lacks). */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const clip = (s: string | null | undefined, max: number) => (s ? wellFormed(s.slice(0, max)) : null);

/**
 * A value as jsonb keeps it: through JSON, with every string well-formed (a lone
 * surrogate, which a client can send in any field, is refused by jsonb; it becomes
 * U+FFFD here rather than a failed write).
 */
function storable(value: AuditValue): unknown {
  if (value == null) return null;
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' ? wellFormed(v) : v)));
}

async function append(tx: Prisma.TransactionClient, ctx: AuditContext, event: AuditEvent): Promise<{ seq: bigint; hash: string }> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${AUDIT_LOCK})`;
  const last = await tx.auditEntry.findFirst({ orderBy: { seq: 'desc' }, select: { seq: true, hash: true } });
  const fields: HashedFields = {
    seq: (last?.seq ?? 0n) + 1n,
    at: new Date(),
    actorId: ctx.actor?.id ?? null,
    actorEmail: clip(ctx.actor?.email, 254),
    action: event.action,
    subjectType: clip(event.subject?.type, 30),
    subjectId: clip(event.subject?.id, 100),
    // Stored as read back (JSON), so the hash of the stored row is the hash written.
    before: storable(event.before),
    after: storable(event.after),
    ip: clip(ctx.ip, 64),
    userAgent: clip(ctx.userAgent, 300),
    prevHash: last?.hash ?? AUDIT_GENESIS,
  };
  const hash = auditHash(fields);
  await tx.auditEntry.create({
    data: {
      ...fields,
      before: fields.before ?? Prisma.DbNull,
      after: fields.after ?? Prisma.DbNull,
      hash,
    },
  });
  return { seq: fields.seq, hash };
}

/**
 * Appends an entry. Given a transaction, inside it (the entry lives or dies with the
 * action); given the client, in a transaction of its own (events with nothing else to
 * write, such as a failed sign-in).
 */
export function recordAudit(client: Client, ctx: AuditContext, event: AuditEvent): Promise<{ seq: bigint; hash: string }> {
  if ('$transaction' in client) return client.$transaction((tx) => append(tx, ctx, event));
  return append(client, ctx, event);
}

export type AuditBreak = { seq: string; message: string };

/**
 * Walks the chain from `fromSeq` (the whole log by default) in keyset batches and
 * returns where it breaks: an entry whose hash is not the hash of its fields, whose
 * `prevHash` is not the hash of the entry before it, or a gap in the numbering (an
 * entry removed). Memory stays one batch.
 */
export async function verifyAuditChain(db: Db, opts: { fromSeq?: bigint; batchSize?: number } = {}): Promise<{ checked: number; breaks: AuditBreak[]; head: { seq: bigint; hash: string } | null }> {
  const batchSize = opts.batchSize ?? 5_000;
  const breaks: AuditBreak[] = [];
  let checked = 0;
  let after = (opts.fromSeq ?? 1n) - 1n;
  // The entry before the first one checked: its hash is what the first must point to.
  let prev: { seq: bigint; hash: string } | null =
    after > 0n ? await db.auditEntry.findUnique({ where: { seq: after }, select: { seq: true, hash: true } }) : null;
  if (after > 0n && !prev) breaks.push({ seq: after.toString(), message: `Audit entry ${after} is missing` });
  for (;;) {
    const rows = await db.auditEntry.findMany({ where: { seq: { gt: after } }, orderBy: { seq: 'asc' }, take: batchSize });
    for (const row of rows) {
      const expectedSeq = after + 1n;
      if (row.seq !== expectedSeq) {
        const gap = row.seq - 1n === expectedSeq ? `Audit entry ${expectedSeq} is missing` : `Audit entries ${expectedSeq} to ${row.seq - 1n} are missing`;
        breaks.push({ seq: expectedSeq.toString(), message: gap });
      }
      const expectedPrev = prev && prev.seq === row.seq - 1n ? prev.hash : row.seq === 1n ? AUDIT_GENESIS : null;
      if (expectedPrev !== null && row.prevHash !== expectedPrev) {
        breaks.push({ seq: row.seq.toString(), message: `Audit entry ${row.seq} does not follow the entry before it (its prevHash differs)` });
      }
      if (auditHash(row) !== row.hash) breaks.push({ seq: row.seq.toString(), message: `Audit entry ${row.seq} was changed after it was written (its hash differs)` });
      prev = { seq: row.seq, hash: row.hash };
      after = row.seq;
      checked++;
    }
    if (rows.length < batchSize) break;
  }
  return { checked, breaks, head: prev };
}
