import { z } from 'zod';
import { isoTime } from './common.ts';

/** Every action the audit log records (the admin page filters by these). */
export const AUDIT_ACTIONS = [
  'user.login',
  'user.login_failed',
  'user.password_reset_requested',
  'user.password_reset',
  '2fa.totp_enabled',
  '2fa.totp_disabled',
  '2fa.step_up',
  '2fa.passkey_added',
  '2fa.passkey_removed',
  'user.update',
  'user.delete',
  'product.create',
  'product.update',
  'product.delete',
  'product.publish',
  'product.unpublish',
  'order.delete',
  'payment.assign',
  'refund.create',
  'payout.marked_paid',
  'payout.hash_withdrawn',
  'cashout.rejected',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.secret_revealed',
  'webhook.redeliver',
  'reconciliation.run',
  'report.exported',
  'approval.requested',
  'approval.approved',
  'approval.rejected',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** GET /api/admin/audit: one entry of the log, newest first. */
export const auditEntryJson = z.object({
  _id: z.string(),
  seq: z.string(),
  at: isoTime,
  actor: z.object({ id: z.string().nullable(), email: z.string().nullable() }).nullable(),
  action: z.string(),
  subject: z.object({ type: z.string(), id: z.string() }).nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEntryJson = z.infer<typeof auditEntryJson>;
