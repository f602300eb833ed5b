import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SweepRunJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { depositsQueryKey } from './get-deposits';

/** How long after asking the figures are read again (the worker's run takes a moment). */
const SETTLE_MS = 3_000;

/** Admin: runs the deposit sweeper now (202); the figures and sweeps are read again after it had time to run. */
export function useSweepNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<SweepRunJson>('/api/admin/deposits/sweep'),
    onSuccess: () => {
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: depositsQueryKey }), SETTLE_MS);
    },
  });
}
