import { useId, useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { AdminPaymentJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { dayColumn } from '@/components/data-table-columns';
import { t } from '@/i18n/i18n';
import { REFUNDED_STATUSES, useAdminPayments } from '../api/get-admin-payments';
import { transferColumns } from './transfer-columns';
import { TransferRefundState } from './transfer-refund-state';

const refundedColumns = (): ColumnDef<AdminPaymentJson>[] => [
  ...transferColumns(),
  { id: 'refund', header: t('adminPayments.column.refund'), cell: ({ row }) => <TransferRefundState refund={row.original.refund} /> },
  dayColumn(),
];

/** Transfers an admin asked to send back, with where their refund stands (paid out from the Cashouts page). */
export function RefundedTransfers() {
  const headingId = useId();
  const list = useAdminPayments(REFUNDED_STATUSES);
  const columns = useMemo(() => refundedColumns(), []);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold tracking-tight">
        {t('adminPayments.refunded.heading')}
      </h2>
      <DataTable
        columns={columns}
        list={list}
        label={t('adminPayments.refunded.heading')}
        emptyText={t('adminPayments.refunded.empty')}
        moreLabel={t('adminPayments.refunded.more')}
      />
    </section>
  );
}
