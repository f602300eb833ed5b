import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CashoutJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';
import { cashoutsQueryKey } from '@/lib/query-keys';

export type MarkCashoutPaidInput = { id: string; payoutTxHash: string };

/** 202: the cashout stays open with a CHECKING check until the worker has verified the transaction on chain. */
export const markCashoutPaid = ({ id, payoutTxHash }: MarkCashoutPaidInput): Promise<CashoutJson> =>
  api.post<CashoutJson>(`/api/admin/cashouts/${encodeURIComponent(id)}/paid`, { payoutTxHash });

/** Admin: names the transaction that paid a cashout out, for the worker to verify. */
export function useMarkCashoutPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markCashoutPaid,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cashoutsQueryKey }),
  });
}
