import { Router } from 'express';
import { Prisma } from '@shop/core';
import { AUDIT_ACTIONS, type AuditEntryJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../middleware/auth.ts';
import { enumList, keysetOrder, keysetWhere, pageQuery, searchTerm, sendPage } from '../../middleware/paging.ts';

type Row = Prisma.AuditEntryGetPayload<object>;

const toJson = (rows: Row[]): AuditEntryJson[] =>
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

/**
 * Admins: the audit log, newest first, paged by its sequence. Filters: `actor` (a user id
 * or an e-mail), `action` (one or more, comma-separated), `subject` (the id of what was
 * acted on). Each filter is served by an index led by its column and ending in `seq`.
 */
export function adminAuditRoutes(deps: AppDeps): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (req, res) => {
    const page = pageQuery(req, 'seq');
    const actor = searchTerm(req, 'actor');
    const subject = searchTerm(req, 'subject');
    const actions = enumList(req, 'action', AUDIT_ACTIONS, { upper: false });
    const rows = await deps.db.auditEntry.findMany({
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
    await sendPage(req, res, page, rows, (r) => ({ key: r.seq, id: r.id }), toJson);
  });
  return router;
}
