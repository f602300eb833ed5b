import { useId } from 'react';
import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { REFUNDED_STATUSES, useAdminPayments } from '../api/get-admin-payments';
import { TransferCells } from './transfer-cells';
import { TransferRefundState } from './transfer-refund-state';

/** Transfers an admin asked to send back, with where their refund stands (paid out from the Cashouts page). */
export function RefundedTransfers() {
  const headingId = useId();
  const list = useAdminPayments(REFUNDED_STATUSES);
  const { data: payments, isPending, error } = list;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold tracking-tight">
        Refunded transfers
      </h2>
      <AdminTableState isPending={isPending} error={error} isEmpty={payments?.length === 0} emptyText="No transfers have been refunded.">
        <Table aria-label="Refunded transfers">
          <TableHeader>
            <TableRow>
              <TableHead>TX HASH</TableHead>
              <TableHead>FROM</TableHead>
              <TableHead>VALUE</TableHead>
              <TableHead>USD</TableHead>
              <TableHead>REFUND</TableHead>
              <TableHead>DATE</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {payments?.map((payment) => (
              <TableRow key={payment._id}>
                <TransferCells payment={payment} />
                <TableCell>
                  <TransferRefundState refund={payment.refund} />
                </TableCell>
                <TableCell>{payment.createdAt.substring(0, 10)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More refunded transfers" />
    </section>
  );
}
