import { Trash2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import { orderReference } from '@shop/core/contract';
import { ConfirmAction } from '@/components/confirm-action';
import { Button } from '@/components/ui/button';
import { useDeleteOrder } from '../api/delete-order';
import { t } from '@/i18n/i18n';

/**
 * 'Delete Order', after a confirmation naming the order. Offered only where the server says
 * it applies (an unpaid order); SPEC.md's toasts tell how it went.
 */
export function DeleteOrderButton({ orderId, onDeleted }: { orderId: string; onDeleted?: () => void }) {
  const remove = useDeleteOrder();
  const onDelete = () =>
    remove.mutate(orderId, {
      onSuccess: () => {
        toast.success(t('orders.delete.deleted'));
        onDeleted?.();
      },
      onError: () => toast.error(t('orders.delete.failed')),
    });
  return (
    <ConfirmAction
      title={t('orders.delete.confirmTitle', { reference: orderReference(orderId) })}
      description={t('orders.delete.confirmText')}
      confirmLabel={t('orders.delete.button')}
      onConfirm={onDelete}
    >
      <Button variant="destructive" size="sm" pending={remove.isPending} disabled={remove.isPending} icon={<Trash2 aria-hidden="true" />}>
        {t('orders.delete.button')}
      </Button>
    </ConfirmAction>
  );
}
