import type { AuditEntryJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';

export const auditQueryKey = ['audit'] as const;

/** Admin: the audit log, newest first, a page at a time, by actor, action and subject. */
export function useAuditLog(filters: { actor?: string; action?: string; subject?: string }) {
  return usePagedQuery<AuditEntryJson>(auditQueryKey, '/api/admin/audit', filters);
}
