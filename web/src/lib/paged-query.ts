import { infiniteQueryOptions, useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Page } from './api-client';
import { SHORT_STALE_TIME } from './query-client';

type Query = Record<string, string | number | undefined>;

/**
 * A list the api pages (a `limit` and a cursor, the next page named in a Link header) as
 * one TanStack infinite query: the first page is read with `query` (filters, search);
 * each further page from the path the previous one named.
 */
export function pagedQueryOptions<T>(queryKey: QueryKey, path: string, query: Query = {}, poll?: (items: T[]) => number | false) {
  return infiniteQueryOptions({
    ...(poll ? { refetchInterval: (q: { state: { data?: { pages: Page<T>[] } } }) => poll(q.state.data?.pages.flatMap((p) => p.items) ?? []) } : {}),
    queryKey: [...queryKey, query],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }): Promise<Page<T>> => (pageParam ? api.page<T>(pageParam, { signal }) : api.page<T>(path, { query, signal })),
    getNextPageParam: (last) => last.next,
    staleTime: SHORT_STALE_TIME,
  });
}

/** The pages read so far as one array (`data`), with what a "Load more" button needs. */
export function usePagedQuery<T>(queryKey: QueryKey, path: string, query: Query = {}, poll?: (items: T[]) => number | false) {
  const result = useInfiniteQuery(pagedQueryOptions<T>(queryKey, path, query, poll));
  const data = useMemo(() => result.data?.pages.flatMap((p) => p.items), [result.data]);
  return { ...result, data };
}

export type PagedList = Pick<ReturnType<typeof usePagedQuery>, 'hasNextPage' | 'fetchNextPage' | 'isFetchingNextPage'>;
