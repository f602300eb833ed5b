import { useId, useState } from 'react';
import { X } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { OrderStatus } from '@shop/core/contract';
import { useCancelOrder } from '@/api/cancel-order';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';

/** Orders their buyer may cancel (the server decides; a payment being confirmed is refused there). */
export const CANCELLABLE_STATUSES: readonly OrderStatus[] = ['PENDING_PAYMENT', 'UNDERPAID'];

/**
 * 'Cancel order', then a confirmation in place: the buyer's unpaid order gives its items
 * back and no longer waits for a payment. A payment already on its way is kept for the
 * shop to refund (said in the confirmation).
 */
export function CancelOrder({ orderId, status, size = 'default' }: { orderId: string; status: OrderStatus; size?: 'sm' | 'default' }) {
  const [asking, setAsking] = useState(false);
  const cancel = useCancelOrder();
  const questionId = useId();
  if (!CANCELLABLE_STATUSES.includes(status)) return null;

  if (!asking) {
    return (
      <Button variant="outline" size={size} icon={<X aria-hidden="true" />} onClick={() => setAsking(true)}>
        {t('cancelOrder.button')}
      </Button>
    );
  }
  return (
    <div role="group" aria-labelledby={questionId} className="flex w-full flex-col gap-2 rounded-lg border p-3 text-sm">
      <p id={questionId} className="font-medium">
        {t('cancelOrder.question')}
      </p>
      <p className="text-muted-foreground">{status === 'UNDERPAID' ? t('cancelOrder.textUnderpaid') : t('cancelOrder.text')}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="destructive"
          size={size}
          pending={cancel.isPending}
          onClick={() =>
            cancel.mutate(orderId, {
              onSuccess: () => {
                setAsking(false);
                toast.success(t('cancelOrder.done'));
              },
              onError: (error) => toast.error(getErrorMessage(error)),
            })
          }
        >
          {t('cancelOrder.yes')}
        </Button>
        <Button variant="outline" size={size} disabled={cancel.isPending} onClick={() => setAsking(false)}>
          {t('cancelOrder.keep')}

        </Button>
      </div>
    </div>
  );
}
