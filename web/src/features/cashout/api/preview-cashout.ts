import { useMutation } from '@tanstack/react-query';
import type { CashoutPreviewJson } from '@shop/core/contract';
import { api } from '@/lib/api-client';

/** What a cashout to `wallet` would do now (the amount, whether the wallet is new and it waits); nothing is written. */
export const previewCashout = (input: { wallet: string }): Promise<CashoutPreviewJson> =>
  api.post<CashoutPreviewJson>('/api/users/cashout/preview', input);

/** Asked when the user presses 'Cashout (x)': the answer fills the confirmation. */
export function usePreviewCashout() {
  return useMutation({ mutationFn: previewCashout });
}
