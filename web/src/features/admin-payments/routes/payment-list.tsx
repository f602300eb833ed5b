import type { ColumnDef } from '@tanstack/react-table';
import type { AdminPaymentJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn, dayColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { StatusBadge } from '@/components/status-badge';
import { useAdminPayments } from '../api/get-admin-payments';
import { DepositAddresses } from '../components/deposit-addresses';
import { OverpaidOrders } from '../components/overpaid-orders';
import { PaymentActions } from '../components/payment-actions';
import { RefundedTransfers } from '../components/refunded-transfers';
import { TRANSFER_COLUMNS } from '../components/transfer-columns';

const PAYMENT_COLUMNS: ColumnDef<AdminPaymentJson>[] = [
  ...TRANSFER_COLUMNS,
  { id: 'status', header: 'STATUS', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  { id: 'reason', header: 'REASON', accessorFn: (payment) => payment.reason ?? '—', meta: { className: 'max-w-64 text-xs whitespace-normal' } },
  dayColumn(),
  actionsColumn((payment) => <PaymentActions payment={payment} />),
];

/**
 * /admin/payments: unresolved and late transfers, to assign to an order or refund; the
 * transfers refunded so far; paid orders with an overpayment to refund; and the deposit
 * addresses (ETH waiting to be swept, the sweeps and their gas, the sweeper's state).
 */
export function PaymentListPage() {
  const list = useAdminPayments();

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Payments" />
      <DataTable
        columns={PAYMENT_COLUMNS}
        list={list}
        label="Transfers that need attention"
        emptyText="No transfers need attention"
        moreLabel="More transfers"
      />
      <OverpaidOrders />
      <RefundedTransfers />
      <DepositAddresses />
    </section>
  );
}
