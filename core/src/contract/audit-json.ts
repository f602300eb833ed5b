import { z } from 'zod';
import { isoTime } from './json-parts.ts';

/** GET /api/admin/audit: one entry of the log, newest first. */
export const auditEntryJson = z.object({
  _id: z.string(),
  seq: z.string(),
  at: isoTime,
  actor: z.object({ id: z.string().nullable(), email: z.string().nullable() }).nullable(),
  action: z.string(),
  /** What was acted on; `name` is how people know it (a user's name, an order's reference, a package's name), null when there is none. */
  subject: z.object({ type: z.string(), id: z.string(), name: z.string().nullable() }).nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEntryJson = z.infer<typeof auditEntryJson>;
