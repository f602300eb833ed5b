import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { AdminPaymentJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn, dayColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { StatusBadge } from '@/components/status-badge';
import { t } from '@/i18n/i18n';
import { useAdminPayments } from '../api/get-admin-payments';
import { DepositAddresses } from '../components/deposit-addresses';
import { OverpaidOrders } from '../components/overpaid-orders';
import { PaymentActions } from '../components/payment-actions';
import { RefundedTransfers } from '../components/refunded-transfers';
import { transferColumns } from '../components/transfer-columns';

const paymentColumns = (): ColumnDef<AdminPaymentJson>[] => [
  ...transferColumns(),
  { id: 'status', header: t('adminPayments.column.status'), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  { id: 'reason', header: t('adminPayments.column.reason'), accessorFn: (payment) => payment.reason ?? '—', meta: { className: 'max-w-64 text-xs whitespace-normal' } },
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
  const columns = useMemo(() => paymentColumns(), []);

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('adminPayments.payments.title')} />
      <DataTable
        columns={columns}
        list={list}
        label={t('adminPayments.payments.label')}
        emptyText={t('adminPayments.payments.empty')}
        moreLabel={t('adminPayments.payments.more')}
      />
      <OverpaidOrders />
      <RefundedTransfers />
      <DepositAddresses />
    </section>
  );
}
