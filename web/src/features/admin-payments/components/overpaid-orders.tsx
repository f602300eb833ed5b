import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import type { OverpaidOrderJson } from '@shop/core/contract';
import { AdminTableState } from '@/components/admin-table-state';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { getErrorMessage } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';
import { useOverpaidOrders } from '../api/get-overpaid-orders';
import { useRefundOverpayment } from '../api/refund-overpayment';
import { RefundWalletForm } from './refund-wallet-form';
import { ShortHex } from './short-hex';

/** Refunds what is left of an order's overpayment: to the address that sent it, or another wallet. */
function RefundOverpaymentAction({ order }: { order: OverpaidOrderJson }) {
  const [open, setOpen] = useState(false);
  const refund = useRefundOverpayment();

  if (open) {
    return (
      <RefundWalletForm
        sender={order.overpayment.from}
        pending={refund.isPending}
        onCancel={() => setOpen(false)}
        onSubmit={(wallet) =>
          refund.mutate(
            { orderId: order._id, ...(wallet ? { wallet } : {}) },
            {
              onSuccess: () => {
                setOpen(false);
                toast.success('Refund requested: pay it out from the Cashouts page');
              },
              onError: (error) => toast.error(getErrorMessage(error)),
            },
          )
        }
      />
    );
  }
  return (
    <div className="flex justify-end">
      <Button size="sm" variant="outline" icon={<Undo2 aria-hidden="true" />} onClick={() => setOpen(true)}>
        Refund overpayment
      </Button>
    </div>
  );
}

/**
 * Paid orders that received more than their total, which the buyer has neither added to
 * a balance nor had refunded yet.
 */
export function OverpaidOrders() {
  const headingId = useId();
  const { data: orders, isPending, error } = useOverpaidOrders();

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-xl font-semibold tracking-tight">
          Overpaid orders
        </h2>
        <p className="text-sm text-muted-foreground">
          The buyer can add an overpayment to their balance or ask for a refund from the order page; a refund requested here goes to
          the Cashouts page to be paid.
        </p>
      </div>
      <AdminTableState isPending={isPending} error={error} isEmpty={orders?.length === 0} emptyText="No order is overpaid.">
        <Table aria-label="Overpaid orders">
          <TableHeader>
            <TableRow>
              <TableHead>ORDER</TableHead>
              <TableHead>BUYER</TableHead>
              <TableHead>TOTAL</TableHead>
              <TableHead>PAID</TableHead>
              <TableHead>OVERPAYMENT</TableHead>
              <TableHead>FROM</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {orders?.map((order) => (
              <TableRow key={order._id}>
                <TableCell className="font-mono text-xs">
                  <Link to={`/order/${order._id}`} className="underline underline-offset-4">
                    {order._id}
                  </Link>
                </TableCell>
                <TableCell>
                  <div className="font-medium">{order.user.name}</div>
                  <a href={`mailto:${order.user.email}`} className="text-xs text-muted-foreground underline-offset-4 hover:underline">
                    {order.user.email}
                  </a>
                </TableCell>
                <TableCell className="tabular-nums">{formatUsd(order.totalPrice)}</TableCell>
                <TableCell className="tabular-nums">{formatUsd(order.paidUsd)}</TableCell>
                <TableCell className="tabular-nums">
                  <div>{formatUsd(order.overpayment.usd)}</div>
                  <div className="text-xs text-muted-foreground">{order.overpayment.eth} ETH</div>
                </TableCell>
                <TableCell>
                  <ShortHex value={order.overpayment.from} />
                </TableCell>
                <TableCell className="text-right">
                  <RefundOverpaymentAction order={order} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
    </section>
  );
}
