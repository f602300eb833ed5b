import { Prisma, type Db } from '@shop/core';
import { orderReference, type AuditAction, type AuditEntryJson } from '@shop/core/contract';
import { keysetOrder, keysetWhere, type PageQuery } from '../../middleware/paging.ts';

type Row = Prisma.AuditEntryGetPayload<object>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a page of entries acted on, by the name people know it by: a user's name, a
 * package's name (two reads of at most a page of ids, by primary key), an order's
 * reference (from its id). Anything else, or a row gone, has none.
 */
async function subjectNames(db: Db, rows: Row[]): Promise<Map<string, string>> {
  const ids = (type: string) => [...new Set(rows.filter((e) => e.subjectType === type && e.subjectId && UUID.test(e.subjectId)).map((e) => e.subjectId as string))];
  const userIds = ids('user');
  const productIds = ids('product');
  const [users, products] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } }) : [],
    productIds.length ? db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, name: true } }) : [],
  ]);
  const names = new Map<string, string>();
  for (const u of users) names.set(`user:${u.id}`, u.name);
  for (const p of products) names.set(`product:${p.id}`, p.name);
  for (const id of ids('order')) names.set(`order:${id}`, orderReference(id));
  return names;
}

/** Entries of the log as admins read them, each subject with its name. */
export async function auditJson(db: Db, rows: Row[]): Promise<AuditEntryJson[]> {
  const names = await subjectNames(db, rows);
  return rows.map((e) => ({
    _id: e.id,
    seq: e.seq.toString(),
    at: e.at.toISOString(),
    actor: e.actorId || e.actorEmail ? { id: e.actorId, email: e.actorEmail } : null,
    action: e.action,
    subject: e.subjectType && e.subjectId ? { type: e.subjectType, id: e.subjectId, name: names.get(`${e.subjectType}:${e.subjectId}`) ?? null } : null,
    before: e.before,
    after: e.after,
    ip: e.ip,
    userAgent: e.userAgent,
    prevHash: e.prevHash,
    hash: e.hash,
  }));
}

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
