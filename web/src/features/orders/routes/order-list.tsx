import { Link } from '@/components/link';
import { formatAssetAmount } from '@/lib/asset-amount';
import type { ColumnDef } from '@tanstack/react-table';
import { orderReference, type AdminOrderJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn, dayColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { DateRangeFilter, StatusFilter } from '@/components/list-filter-fields';
import { SearchBox, useListParam } from '@/components/list-filters';
import { Badge } from '@/components/ui/badge';
import { YesNoIcon } from '@/components/yes-no-icon';
import { formatUsd } from '@/lib/format';
import { useOrders } from '../api/get-orders';
import { DeleteOrderButton } from '../components/delete-order-button';

function userName(user: AdminOrderJson['user']): string {
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

/** Each order's transfers: the admin sees what was sent and how it was counted. */
function OrderPayments({ payments }: { payments: AdminOrderJson['payments'] }) {
  if (payments.length === 0) return <span className="text-muted-foreground">None</span>;
  return (
    <ul className="flex flex-col gap-1 text-xs">
      {payments.map((p) => (
        <li key={p.txHash} title={p.txHash}>
          <span className="font-mono">{`${p.txHash.slice(0, 10)}…`}</span> {statusText(p.status)}
          {p.amount !== null ? ` ${formatAssetAmount(p.amount, p.asset)}` : ''}
          {p.usdValue !== null ? ` (${formatUsd(p.usdValue)})` : ''}
        </li>
      ))}
    </ul>
  );
}

/** SPEC.md section 6: ID, USER, DATE, TOTAL, PAID, then what the admin needs to follow a payment. */
const ORDER_COLUMNS: ColumnDef<AdminOrderJson>[] = [
  {
    // The order's reference, opening its page (the UUID stays in the URL).
    id: 'reference',
    header: 'ID',
    cell: ({ row }) => (
      <Link to={`/admin/order/${row.original._id}`} className="underline underline-offset-4">
        {orderReference(row.original._id)}
      </Link>
    ),
    meta: { className: 'font-mono text-xs' },
  },
  { id: 'user', header: 'USER', accessorFn: (order) => userName(order.user) },
  dayColumn(),
  { id: 'total', header: 'TOTAL', accessorFn: (order) => formatUsd(order.totalPrice) },
  { id: 'paid', header: 'PAID', cell: ({ row }) => <YesNoIcon value={row.original.isPaid} yes="Paid" no="Not paid" /> },
  {
    id: 'status',
    header: 'STATUS',
    cell: ({ row }) => <Badge variant={row.original.isPaid ? 'success' : 'secondary'}>{statusText(row.original.status)}</Badge>,
  },
  { id: 'payments', header: 'PAYMENTS', cell: ({ row }) => <OrderPayments payments={row.original.payments} /> },
  actionsColumn((order) =>
    order.canDelete ? (
      <DeleteOrderButton orderId={order._id} />
    ) : (
      <span className="text-xs text-muted-foreground">{order.deleteBlockedReason}</span>
    ),
  ),
];

export function OrderListPage() {
  const [status] = useListParam('status');
  const [q] = useListParam('q');
  const [from] = useListParam('from');
  const [to] = useListParam('to');
  const list = useOrders({ status, q, from, to });
  const filtered = Boolean(status || q || from || to);

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Order List" />
      <DataTable
        columns={ORDER_COLUMNS}
        list={list}
        emptyText={filtered ? 'No order matches.' : 'There are no orders yet.'}
        moreLabel="More orders"
        toolbar={
          <>
            <SearchBox label="Search orders" placeholder="Buyer e-mail or name, order reference, transaction hash" />
            <StatusFilter label="Status" options={STATUS_OPTIONS} />
            <DateRangeFilter label="Placed between" />
          </>
        }
      />
    </section>
  );
}
