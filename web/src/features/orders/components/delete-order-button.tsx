import { Trash2 } from 'lucide-react';
import { toast } from '@/lib/toast';
import { orderReference } from '@shop/core/contract';
import { ConfirmAction } from '@/components/confirm-action';
import { Button } from '@/components/ui/button';
import { useDeleteOrder } from '../api/delete-order';

/**
 * 'Delete Order', after a confirmation naming the order. Offered only where the server says
 * it applies (an unpaid order); SPEC.md's toasts tell how it went.
 */
export function DeleteOrderButton({ orderId, onDeleted }: { orderId: string; onDeleted?: () => void }) {
  const remove = useDeleteOrder();
  const onDelete = () =>
    remove.mutate(orderId, {
      onSuccess: () => {
        toast.success('Order deleted!');
        onDeleted?.();
      },
      onError: () => toast.error('Failed to delete order.'),
    });
  return (
    <ConfirmAction
      title={`Delete order ${orderReference(orderId)}?`}
      description="Its items go back into stock and it leaves the order list. A transfer that still arrives for it waits on the Payments page for you to assign or refund."
      confirmLabel="Delete Order"
      onConfirm={onDelete}
    >
      <Button variant="destructive" size="sm" pending={remove.isPending} disabled={remove.isPending} icon={<Trash2 aria-hidden="true" />}>
        Delete Order
      </Button>
    </ConfirmAction>
  );
}
