import { queryOptions, useQuery } from '@tanstack/react-query';
import { WAITING_CAP, type AdminWaitingJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { adminWaitingQueryKey } from '@/lib/query-keys';

/** How often an admin's menu asks again what waits (a decision or a payout elsewhere changes it). */
export const ADMIN_WAITING_REFRESH_MS = 60_000;

/** GET /api/admin/overview/waiting: what waits for the signed-in admin (two bounded counts). */
export const getAdminWaitingQueryOptions = () =>
  queryOptions({
    queryKey: adminWaitingQueryKey,
    queryFn: ({ signal }) => api.get<AdminWaitingJson>('/api/admin/overview/waiting', { signal }),
    staleTime: ADMIN_WAITING_REFRESH_MS / 2,
    // A menu without counts is still a menu: a failure shows none and is asked again later.
    retry: false,
  });

/** The Admin menu's counts; asked only for an admin. */
export function useAdminWaiting(isAdmin: boolean) {
  return useQuery({ ...getAdminWaitingQueryOptions(), enabled: isAdmin, refetchInterval: isAdmin ? ADMIN_WAITING_REFRESH_MS : false });
}

/** A count as the menu shows it: '99+' once it reached the cap the api counts to. */
export function waitingText(count: number): string {
  return count >= WAITING_CAP ? `${WAITING_CAP - 1}+` : String(count);
}

/** The menu button's total: '99+' when either count reached the cap. */
export function waitingTotal(waiting: AdminWaitingJson): { count: number; text: string } {
  const count = waiting.approvals + waiting.cashouts;
  const capped = waiting.approvals >= WAITING_CAP || waiting.cashouts >= WAITING_CAP;
  return { count, text: capped ? waitingText(WAITING_CAP) : String(count) };
}
