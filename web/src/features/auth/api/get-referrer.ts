import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReferrerJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { referrerQueryKey } from '@/lib/query-keys';

/** GET /api/users/referrer: the name of the person whose referral code this is (404: no one's). */
export const getReferrer = (referralCode: string, { signal }: { signal?: AbortSignal } = {}): Promise<ReferrerJson> =>
  api.get<ReferrerJson>(`/api/users/referrer?referralCode=${encodeURIComponent(referralCode)}`, signal ? { signal } : {});

export const getReferrerQueryOptions = (referralCode: string) =>
  queryOptions({
    queryKey: referrerQueryKey(referralCode),
    queryFn: ({ signal }) => getReferrer(referralCode, { signal }),
    // A code's owner does not change while the page is open; an unknown code is said at once.
    staleTime: Infinity,
    retry: false,
  });

/** Whose `referralCode` is; nothing is asked for an empty code. */
export function useReferrer(referralCode: string) {
  return useQuery({ ...getReferrerQueryOptions(referralCode), enabled: referralCode !== '' });
}
