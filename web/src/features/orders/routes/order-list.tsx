import { useMemo } from 'react';
import { Link } from '@/components/link';
import { formatAssetAmount } from '@/lib/asset-amount';
import type { ColumnDef } from '@tanstack/react-table';
import { orderReference, type AdminOrderJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn, dayColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { DateRangeFilter, StatusFilter } from '@/components/list-filter-fields';
import { SearchBox, useListParam } from '@/components/list-filters';
import { statusText } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { YesNoIcon } from '@/components/yes-no-icon';
import { formatUsd } from '@/lib/format';
import { useOrders } from '../api/get-orders';
import { DeleteOrderButton } from '../components/delete-order-button';
import { t } from '@/i18n/i18n';

function userName(user: AdminOrderJson['user']): string {
  return typeof user === 'object' && user ? user.name : '';
}

const statusOptions = () => [
  { value: '', label: t('orders.list.all') },
  { value: 'PENDING_PAYMENT,VERIFYING,UNDERPAID,LATE', label: t('orders.list.unpaid') },
  ...(['PAID', 'PENDING_PAYMENT', 'VERIFYING', 'UNDERPAID', 'LATE', 'EXPIRED', 'CANCELLED'] as const).map((s) => ({ value: s, label: statusText(s) })),
];

/** Each order's transfers: the admin sees what was sent and how it was counted. */
function OrderPayments({ payments }: { payments: AdminOrderJson['payments'] }) {
  if (payments.length === 0) return <span className="text-muted-foreground">{t('orders.list.noPayments')}</span>;
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
const orderColumns = (): ColumnDef<AdminOrderJson>[] => [
  {
    // The order's reference, opening its page (the UUID stays in the URL).
    id: 'reference',
    header: t('orders.list.id'),
    cell: ({ row }) => (
      <Link to={`/admin/order/${row.original._id}`} className="underline underline-offset-4">
        {orderReference(row.original._id)}
      </Link>
    ),
    meta: { className: 'font-mono text-xs' },
  },
  { id: 'user', header: t('orders.list.user'), accessorFn: (order) => userName(order.user) },
  dayColumn(t('orders.list.date')),
  { id: 'total', header: t('orders.list.total'), accessorFn: (order) => formatUsd(order.totalPrice) },
  { id: 'paid', header: t('orders.list.paid'), cell: ({ row }) => <YesNoIcon value={row.original.isPaid} yes={t('orders.list.isPaid')} no={t('orders.list.notPaid')} /> },
  {
    id: 'status',
    header: t('orders.list.status'),
    cell: ({ row }) => <Badge variant={row.original.isPaid ? 'success' : 'secondary'}>{statusText(row.original.status)}</Badge>,
  },
  { id: 'payments', header: t('orders.list.payments'), cell: ({ row }) => <OrderPayments payments={row.original.payments} /> },
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
  // In the language of the page (a switch reloads it): made once.
  const columns = useMemo(() => orderColumns(), []);

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('orders.list.title')} />
      <DataTable
        columns={columns}
        list={list}
        emptyText={filtered ? t('orders.list.noMatch') : t('orders.list.none')}
        moreLabel={t('orders.list.more')}
        toolbar={
          <>
            <SearchBox label={t('orders.list.search')} placeholder={t('orders.list.searchHint')} />
            <StatusFilter label={t('orders.list.statusFilter')} options={statusOptions()} />
            <DateRangeFilter label={t('orders.list.placedBetween')} />
          </>
        }
      />
    </section>
  );
}
