import { useNavigate, useParams } from 'react-router-dom';
import { BackLink } from '@/components/back-link';
import { ErrorAlert } from '@/components/error-alert';
import { Badge } from '@/components/ui/badge';
import { PageSpinner } from '@/components/ui/spinner';
import { SectionCard } from '@/components/detail-list';
import { statusText } from '@/components/status-badge';
import { t } from '@/i18n/i18n';
import { useAdminOrder } from '@/features/admin-orders/api/get-admin-order';
import { OrderBuyer, OrderDeliveries, OrderItems, OrderQuotes, OrderSummary } from '@/features/admin-orders/components/order-sections';
import { OrderOverpayment } from '@/features/admin-payments/components/order-overpayment';
import { OrderRefunds } from '@/features/admin-payments/components/order-refunds';
import { OrderTransfers } from '@/features/admin-payments/components/order-transfers';
import { DeleteOrderButton } from '@/features/orders/components/delete-order-button';

/**
 * One order for an admin (/admin/order/:id): what was bought and by whom, its quotes, the
 * transfers with their confirmations and reasons, the overpayment and refunds with their
 * payouts, the webhook deliveries, and the actions that apply to it now (the server says
 * which: 'Delete Order' only on an unpaid order, otherwise the reason why not). Composed
 * here from three features: the order (admin-orders), its money (admin-payments: the
 * transfers, refunds and overpayment with their actions) and the delete (orders).
 */
export function AdminOrderPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data: order, isPending, isError, error } = useAdminOrder(id);

  if (isPending) return <PageSpinner label={t('adminOrder.loading')} />;
  if (isError) {
    return (
      <section className="flex flex-col gap-6">
        <BackLink to="/admin/orderlist" />
        <ErrorAlert error={error} />
      </section>
    );
  }

  return (
    <section className="flex flex-col gap-6">
      <BackLink to="/admin/orderlist" />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-bold tracking-tight">{order.reference}</h1>
        <Badge variant={order.isPaid ? 'success' : order.status === 'DELETED' ? 'destructive' : 'secondary'}>{statusText(order.status)}</Badge>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-6">
          <OrderSummary order={order} />
          <OrderBuyer buyer={order.buyer} />
          <OrderItems items={order.items} />
          <SectionCard title={t('adminOrder.actions')}>
            {order.actions.canDelete ? (
              <div className="flex justify-start">
                <DeleteOrderButton orderId={order._id} onDeleted={() => navigate('/admin/orderlist')} />
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">{t('adminOrder.deleteBlocked', { reason: order.actions.deleteBlockedReason ?? '' })}</p>
            )}
          </SectionCard>
          <OrderQuotes quotes={order.quotes} />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <OrderTransfers payments={order.payments} />
          {order.overpayment ? <OrderOverpayment orderId={order._id} overpayment={order.overpayment} /> : null}
          <OrderRefunds refunds={order.refunds} />
          <OrderDeliveries deliveries={order.deliveries} />
        </div>
      </div>
    </section>
  );
}
