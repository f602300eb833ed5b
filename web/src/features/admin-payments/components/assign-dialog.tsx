import { useState, type FormEvent } from 'react';
import { Search } from 'lucide-react';
import { toast } from '@/lib/toast';
import { orderReference, type AdminPaymentJson, type AssignableOrderJson } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { FormField } from '@/components/form-field';
import { StatusBadge, statusText } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { paymentAmount } from '@/lib/asset-amount';
import { getErrorMessage } from '@/lib/api-client';
import { formatDay, formatUsd } from '@/lib/format';
import { useAssignPayment } from '../api/assign-payment';
import { useAssignableOrders } from '../api/get-assignable-orders';
import { marks, withParts } from '@/i18n/rich-text';
import { ShortHex } from './short-hex';

/** One open order the server offers, with the button that assigns the transfer to it. */
function OfferedOrder({ order, pending, onAssign }: { order: AssignableOrderJson; pending: boolean; onAssign: (orderId: string) => Promise<void> }) {
  return (
    <li className="flex flex-col gap-1.5 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-xs">{order.reference}</span>
        <StatusBadge status={order.status} />
        {order.reported ? <Badge variant="outline">{t('adminPayments.assign.reported')}</Badge> : null}
      </div>
      <div className="[overflow-wrap:anywhere] text-muted-foreground">
        {order.buyer.name} · {order.buyer.email}
      </div>
      <div className="text-muted-foreground">
        {t('adminPayments.assign.due', { due: formatUsd(order.dueUsd), total: formatUsd(order.totalPrice), day: formatDay(order.createdAt) })}
      </div>
      <Button size="sm" className="self-start" pending={pending} disabled={pending} onClick={() => void onAssign(order._id)}>
        {t('adminPayments.assign.assignTo', { reference: order.reference })}
      </Button>
    </li>
  );
}

/**
 * Assigning a transfer to the order it pays: by the order's reference (ORD-…, what buyers
 * quote) or id, or picked from the open orders the server offers: the buyer's, found by
 * e-mail or name, and before anything is typed the orders the transfer was reported for.
 * The server decides what is open and whether the transfer may pay it.
 */
export function AssignDialog({ payment, open, onOpenChange }: { payment: AdminPaymentJson; open: boolean; onOpenChange: (open: boolean) => void }) {
  const assign = useAssignPayment();
  const [order, setOrder] = useState(payment.order ? orderReference(payment.order) : '');
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const offered = useAssignableOrders(payment._id, q, open);

  // Through the promise, not mutate's callbacks: the refreshed list drops the transfer's row
  // (and this dialog with it) before those would run, and the toast must still say so.
  const assignTo = (orderId: string) =>
    assign.mutateAsync({ id: payment._id, orderId }).then(
      ({ orderStatus }) => {
        toast.success(t('adminPayments.assign.assigned', { status: statusText(orderStatus).toLowerCase() }));
        onOpenChange(false);
      },
      (error: unknown) => {
        toast.error(getErrorMessage(error));
      },
    );
  const onAssign = (e: FormEvent) => {
    e.preventDefault();
    if (order.trim()) void assignTo(order.trim());
  };
  const onFind = (e: FormEvent) => {
    e.preventDefault();
    setQ(draft.trim());
  };
  const orders = offered.data ?? [];

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] max-w-lg overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t('adminPayments.assign.title')}</DialogTitle>
          <DialogDescription>
            {withParts(
              t('adminPayments.assign.description', {
                amount: payment.usdValue !== null ? t('adminPayments.withUsd', { amount: paymentAmount(payment), usd: formatUsd(payment.usdValue) }) : paymentAmount(payment),
                ...marks('tx', 'from'),
              }),
              { tx: <ShortHex value={payment.txHash} />, from: <ShortHex value={payment.from} /> },
            )}
          </DialogDescription>
        </DialogHeader>
        <form aria-label={t('adminPayments.assign.form')} onSubmit={onAssign} className="flex flex-wrap items-end gap-2">
          <FormField
            className="min-w-0 flex-1 basis-56"
            label={t('adminPayments.assign.order')}
            placeholder="ORD-XXXXXXXX"
            required
            autoComplete="off"
            spellCheck={false}
            value={order}
            onValueChange={setOrder}
          />
          <Button type="submit" pending={assign.isPending} disabled={assign.isPending}>
            {t('adminPayments.assign.submit')}
          </Button>
        </form>
        <section aria-label={t('adminPayments.assign.openOrders')} className="flex flex-col gap-2 border-t pt-4">
          <form role="search" aria-label={t('adminPayments.assign.find')} onSubmit={onFind} className="flex items-center gap-2">
            <Input type="search" aria-label={t('adminPayments.assign.buyer')} placeholder={t('adminPayments.assign.buyer')} maxLength={100} value={draft} onChange={(e) => setDraft(e.target.value)} />
            <Button type="submit" variant="outline" icon={<Search aria-hidden="true" />}>
              {t('adminPayments.assign.findButton')}
            </Button>
          </form>
          {offered.isPending ? (
            <div className="flex justify-center py-4">
              <Spinner label={t('adminPayments.assign.loading')} />
            </div>
          ) : offered.isError ? (
            <ErrorAlert error={offered.error} />
          ) : orders.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {q ? t('adminPayments.assign.noMatch') : t('adminPayments.assign.noneReported')}
            </p>
          ) : (
            <ul aria-label={t('adminPayments.assign.list')} className="divide-y">
              {orders.map((o) => (
                <OfferedOrder key={o._id} order={o} pending={assign.isPending && assign.variables?.orderId === o._id} onAssign={assignTo} />
              ))}
            </ul>
          )}
        </section>
      </DialogContent>
    </Dialog>
  );
}
