import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { cashoutsQueryKey, refundsQueryKey } from '@/lib/query-keys';

export type WithdrawPayoutHashInput = { kind: 'cashouts' | 'refunds'; id: string };

/** Withdraws the payout hash being checked: the server allows it only for one the node never showed (a mistyped hash). */
export const withdrawPayoutHash = ({ kind, id }: WithdrawPayoutHashInput): Promise<unknown> =>
  api.delete(`/api/admin/${kind}/${encodeURIComponent(id)}/paid`);

/** Admin: takes back a payout hash nobody has seen on chain; the request can be marked paid again. */
export function useWithdrawPayoutHash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawPayoutHash,
    onSuccess: async (_result, { kind }) => {
      await queryClient.invalidateQueries({ queryKey: kind === 'cashouts' ? cashoutsQueryKey : refundsQueryKey });
    },
  });
}
