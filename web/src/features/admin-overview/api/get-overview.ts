import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOverviewJson, ExportFile } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { SHORT_STALE_TIME } from '@/lib/query-client';
import { overviewQueryKey } from '@/lib/query-keys';

/** A range of UTC days, both included (YYYY-MM-DD). */
export type DayRange = { from: string; to: string };

export const getOverview = (range: DayRange, signal?: AbortSignal): Promise<AdminOverviewJson> =>
  api.get<AdminOverviewJson>('/api/admin/overview', { query: range, ...(signal ? { signal } : {}) });

export const overviewQuery = (range: DayRange) =>
  queryOptions({
    // The range is part of the key: each range is its own figures.
    queryKey: [...overviewQueryKey, range.from, range.to],
    queryFn: ({ signal }) => getOverview(range, signal),
    staleTime: SHORT_STALE_TIME,
    // While another range loads, the figures of the last one stay on screen.
    placeholderData: keepPreviousData,
  });

/** Admin: the overview of a range (revenue and paid orders per day, states, open work, top packages). */
export function useOverview(range: DayRange) {
  return useQuery(overviewQuery(range));
}

/** The address of a CSV export of the range: a plain link, downloaded by the browser with the session cookie. */
export const exportUrl = (file: ExportFile, range: DayRange) => `/api/admin/export/${file}.csv?${new URLSearchParams(range).toString()}`;

/**
 * Before a download: the exports need a second factor given in the last 10 minutes, which
 * a browser following a link cannot be asked for. This call is (the api client's step-up
 * dialog asks for the factor on its 403 and sends it again); it rejects when the admin
 * closes the dialog.
 */
export const readyToExport = (): Promise<unknown> => api.get('/api/admin/export/ready');
