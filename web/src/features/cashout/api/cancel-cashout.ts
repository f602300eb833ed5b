import { useMutation } from '@tanstack/react-query';
import type { CashoutCancelJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';

/** The new-wallet e-mail's link: cancels the cashouts to that wallet, blocks it, signs the account out everywhere. */
export const cancelCashout = (input: { token: string }): Promise<CashoutCancelJson> =>
  api.post<CashoutCancelJson>('/api/users/cashout/cancel', input);

export function useCancelCashout() {
  return useMutation({ mutationFn: cancelCashout });
}
