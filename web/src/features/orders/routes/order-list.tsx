import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import type { OrderJson } from '@shop/core/contract';
import { AdminTableState } from '@/components/admin-table-state';
import { PageHeader } from '@/components/page-header';
import { SearchBox, StatusFilter, useListParam } from '@/components/list-filters';
import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { YesNoIcon } from '@/components/yes-no-icon';
import { formatUsd } from '@/lib/format';
import { useDeleteOrder } from '../api/delete-order';
import { useOrders } from '../api/get-orders';

function userName(user: OrderJson['user']): string {
  return typeof user === 'object' && user ? user.name : '';
}

/** 'PENDING_PAYMENT' -> 'Pending payment'. */
export function statusText(status: string): string {
  const words = status.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const STATUS_OPTIONS = [
  { value: '', label: 'All' },
  { value: 'PENDING_PAYMENT,VERIFYING,UNDERPAID,LATE', label: 'Unpaid' },
  ...(['PAID', 'PENDING_PAYMENT', 'VERIFYING', 'UNDERPAID', 'LATE', 'EXPIRED', 'CANCELLED'] as const).map((s) => ({ value: s, label: statusText(s) })),
];

export function OrderListPage() {
  const [status] = useListParam('status');
  const [q] = useListParam('q');
  const list = useOrders({ status, q });
  const { data: orders, isPending, error } = list;
  const filtered = Boolean(status || q);
  const remove = useDeleteOrder();

  const onDelete = (id: string) =>
    remove.mutate(id, {
      onSuccess: () => toast.success('Order deleted!'),
      onError: () => toast.error('Failed to delete order.'),
    });

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Order List" />
      <div className="flex flex-wrap items-center gap-3">
        <SearchBox label="Search orders" placeholder="Buyer e-mail or name, order id, transaction hash" />
        <StatusFilter label="Status" options={STATUS_OPTIONS} />
      </div>
      <AdminTableState isPending={isPending} error={error} isEmpty={orders?.length === 0} emptyText={filtered ? 'No order matches.' : 'There are no orders yet.'}>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>ID</TableHead>
              <TableHead>USER</TableHead>
              <TableHead>DATE</TableHead>
              <TableHead>TOTAL</TableHead>
              <TableHead>PAID</TableHead>
              <TableHead>STATUS</TableHead>
              <TableHead>PAYMENTS</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {orders?.map((order) => (
              <TableRow key={order._id}>
                <TableCell className="font-mono text-xs">{order._id}</TableCell>
                <TableCell>{userName(order.user)}</TableCell>
                <TableCell>{order.createdAt.substring(0, 10)}</TableCell>
                <TableCell>{formatUsd(order.totalPrice)}</TableCell>
                <TableCell>
                  <YesNoIcon value={order.isPaid} yes="Paid" no="Not paid" />
                </TableCell>
                <TableCell>
                  <Badge variant={order.isPaid ? 'success' : 'secondary'}>{statusText(order.status)}</Badge>
                </TableCell>
                <TableCell>
                  {order.payments.length === 0 ? (
                    <span className="text-muted-foreground">None</span>
                  ) : (
                    <ul className="flex flex-col gap-1 text-xs">
                      {order.payments.map((p) => (
                        <li key={p.txHash} title={p.txHash}>
                          <span className="font-mono">{`${p.txHash.slice(0, 10)}…`}</span> {statusText(p.status)}
                          {p.usdValue !== null ? ` ${formatUsd(p.usdValue)}` : ''}
                        </li>
                      ))}
                    </ul>
                  )}
                </TableCell>
                <TableCell className="text-right">
                  <Button
                    variant="destructive"
                    size="sm"
                    disabled={remove.isPending && remove.variables === order._id}
                    onClick={() => onDelete(order._id)}
                  >
                    <Trash2 aria-hidden="true" />
                    Delete Order
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More orders" />
    </section>
  );
}
