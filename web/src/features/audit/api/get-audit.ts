import type { AuditEntryJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { auditQueryKey } from '@/lib/query-keys';

/** Admin: the audit log, newest first, a page at a time, by actor, action and subject. */
export function useAuditLog(filters: { actor?: string; action?: string; subject?: string }) {
  return usePagedQuery<AuditEntryJson>(auditQueryKey, '/api/admin/audit', filters);
}
