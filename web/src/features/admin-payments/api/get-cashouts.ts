import type { CashoutJson, PayoutCheckJson } from '@shop/core/contract';
import { usePagedQuery } from '@/lib/paged-query';
import { cashoutsQueryKey } from '@/lib/query-keys';

/** How often a payout list is asked for again while the worker checks one of its payouts. */
export const PAYOUT_CHECK_POLL_INTERVAL = 4000;

/** A refetchInterval: poll while any payout transaction is being checked on chain, else not at all. */
export function pollWhileChecking(payouts: { check: PayoutCheckJson | null }[] | undefined): number | false {
  return payouts?.some((p) => p.check?.status === 'CHECKING') ? PAYOUT_CHECK_POLL_INTERVAL : false;
}

/** Admin: cashout requests, newest first, a page at a time; `status` narrows them (open ones: REQUESTED,NOTIFIED). */
export function useCashouts(status?: string) {
  return usePagedQuery<CashoutJson>(cashoutsQueryKey, '/api/admin/cashouts', { status }, pollWhileChecking);
}
