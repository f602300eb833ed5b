import { Prisma, type Db } from '@shop/core';
import type { AuditAction, AuditEntryJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

type Row = Prisma.AuditEntryGetPayload<object>;

/** Entries of the log as admins read them. */
export const auditJson = (rows: Row[]): AuditEntryJson[] =>
  rows.map((e) => ({
    _id: e.id,
    seq: e.seq.toString(),
    at: e.at.toISOString(),
    actor: e.actorId || e.actorEmail ? { id: e.actorId, email: e.actorEmail } : null,
    action: e.action,
    subject: e.subjectType && e.subjectId ? { type: e.subjectType, id: e.subjectId } : null,
    before: e.before,
    after: e.after,
    ip: e.ip,
    userAgent: e.userAgent,
    prevHash: e.prevHash,
    hash: e.hash,
  }));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AuditFilter = { actor?: string; subject?: string; actions?: AuditAction[] };

/** One page of the log, newest first by its sequence; each filter is served by an index led by its column and ending in `seq`. */
export function auditPage(db: Db, filter: AuditFilter, page: PageQuery): Promise<Row[]> {
  const { actor, subject, actions } = filter;
  return db.auditEntry.findMany({
    where: {
      AND: [
        actor ? (UUID.test(actor) ? { actorId: actor } : { actorEmail: actor.toLowerCase() }) : {},
        subject ? { subjectId: subject } : {},
        actions ? { action: { in: [...actions] } } : {},
        keysetWhere('seq', 'desc', page.after) as Prisma.AuditEntryWhereInput,
      ],
    },
    orderBy: keysetOrder('seq', 'desc') as Prisma.AuditEntryOrderByWithRelationInput[],
    take: page.limit + 1,
  });
}
