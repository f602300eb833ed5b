import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { OverpaidOrderJson } from '@shop/core/contract';
import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { useOverpaidOrders } from '../api/get-overpaid-orders';
import { useRefundOverpayment } from '../api/refund-overpayment';
import { RequestRefundAction } from './request-refund-action';
import { ShortHex } from './short-hex';
import { UserCell } from './user-cell';

/**
 * Refunds what is left of an order's overpayment: each transfer's part to the address
 * that sent it, or all of it to a wallet the admin names (required when a part has no
 * single sender).
 */
function RefundOverpaymentAction({ order }: { order: OverpaidOrderJson }) {
  const refund = useRefundOverpayment();
  const { refundable, from } = order.overpayment;
  return (
    <RequestRefundAction
      sender={refundable ? (from ?? "each transfer's own sender") : null}
      label="Refund overpayment"
      pending={refund.isPending}
      mutate={(target, { onSuccess, onError }) => refund.mutate({ orderId: order._id, ...target }, { onSuccess: () => onSuccess(), onError })}
    />
  );
}

/**
 * Paid orders that received more than their total, which the buyer has neither added to
 * a balance nor had refunded yet.
 */
export function OverpaidOrders() {
  const headingId = useId();
  const list = useOverpaidOrders();
  const { data: orders, isPending, error } = list;

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
                <UserCell user={order.user} />
                <TableCell className="tabular-nums">{formatUsd(order.totalPrice)}</TableCell>
                <TableCell className="tabular-nums">{formatUsd(order.paidUsd)}</TableCell>
                <TableCell className="tabular-nums">
                  <div>{formatUsd(order.overpayment.usd)}</div>
                  <div className="text-xs text-muted-foreground">{order.overpayment.eth} ETH</div>
                </TableCell>
                <TableCell>
                  {order.overpayment.from || !order.overpayment.parts.length ? (
                    <ShortHex value={order.overpayment.from} />
                  ) : (
                    <ul className="flex flex-col gap-1">
                      {order.overpayment.parts.map((part) => (
                        <li key={part.txHash}>
                          <ShortHex value={part.from} />
                        </li>
                      ))}
                    </ul>
                  )}
                </TableCell>
                <TableCell className="text-right">
                  <RefundOverpaymentAction order={order} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More overpaid orders" />
    </section>
  );
}
