import { useId } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { AdminPaymentJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { dayColumn } from '@/components/data-table-columns';
import { REFUNDED_STATUSES, useAdminPayments } from '../api/get-admin-payments';
import { TRANSFER_COLUMNS } from './transfer-columns';
import { TransferRefundState } from './transfer-refund-state';

const REFUNDED_COLUMNS: ColumnDef<AdminPaymentJson>[] = [
  ...TRANSFER_COLUMNS,
  { id: 'refund', header: 'REFUND', cell: ({ row }) => <TransferRefundState refund={row.original.refund} /> },
  dayColumn(),
];

/** Transfers an admin asked to send back, with where their refund stands (paid out from the Cashouts page). */
export function RefundedTransfers() {
  const headingId = useId();
  const list = useAdminPayments(REFUNDED_STATUSES);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold tracking-tight">
        Refunded transfers
      </h2>
      <DataTable
        columns={REFUNDED_COLUMNS}
        list={list}
        label="Refunded transfers"
        emptyText="No transfers have been refunded."
        moreLabel="More refunded transfers"
      />
    </section>
  );
}
