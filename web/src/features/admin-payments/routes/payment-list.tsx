import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { PageHeader } from '@/components/page-header';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAdminPayments } from '../api/get-admin-payments';
import { OverpaidOrders } from '../components/overpaid-orders';
import { PaymentActions } from '../components/payment-actions';
import { RefundedTransfers } from '../components/refunded-transfers';
import { TransferCells } from '../components/transfer-cells';
import { StatusBadge } from '@/components/status-badge';

/**
 * /admin/payments: unresolved and late transfers, to assign to an order or refund; the
 * transfers refunded so far; and paid orders with an overpayment to refund.
 */
export function PaymentListPage() {
  const list = useAdminPayments();
  const { data: payments, isPending, error } = list;

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Payments" />
      <AdminTableState
        isPending={isPending}
        error={error}
        isEmpty={payments?.length === 0}
        emptyText="No transfers need attention"
      >
        <Table aria-label="Transfers that need attention">
          <TableHeader>
            <TableRow>
              <TableHead>TX HASH</TableHead>
              <TableHead>FROM</TableHead>
              <TableHead>VALUE</TableHead>
              <TableHead>USD</TableHead>
              <TableHead>STATUS</TableHead>
              <TableHead>REASON</TableHead>
              <TableHead>DATE</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {payments?.map((payment) => (
              <TableRow key={payment._id}>
                <TransferCells payment={payment} />
                <TableCell>
                  <StatusBadge status={payment.status} />
                </TableCell>
                <TableCell className="max-w-64 text-xs whitespace-normal">{payment.reason ?? '—'}</TableCell>
                <TableCell>{payment.createdAt.substring(0, 10)}</TableCell>
                <TableCell className="text-right">
                  <PaymentActions payment={payment} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More transfers" />
      <OverpaidOrders />
      <RefundedTransfers />
    </section>
  );
}
