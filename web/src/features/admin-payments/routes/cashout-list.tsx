import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { CashoutJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn, dayColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { StatusFilter } from '@/components/list-filter-fields';
import { useListParam } from '@/components/list-filters';
import { StatusBadge } from '@/components/status-badge';
import { t } from '@/i18n/i18n';
import { formatTime, formatUsd } from '@/lib/format';
import { useCashouts } from '../api/get-cashouts';
import { CashoutActions } from '../components/cashout-actions';
import { PayoutState } from '../components/payout-state';
import { RefundList } from '../components/refund-list';
import { userColumn } from '../components/user-cell';

const cashoutFilters = () => [
  { value: '', label: t('adminPayments.cashouts.filterAll') },
  { value: 'REQUESTED,NOTIFIED', label: t('adminPayments.cashouts.filterWaiting') },
  { value: 'HELD', label: t('adminPayments.cashouts.filterHeld') },
  { value: 'PAID', label: t('adminPayments.cashouts.filterPaid') },
  { value: 'REJECTED', label: t('adminPayments.cashouts.filterRejected') },
  { value: 'CANCELLED', label: t('adminPayments.cashouts.filterCancelled') },
];

const cashoutColumns = (): ColumnDef<CashoutJson>[] => [
  // Wrapped, like the wallet: in one line it pushed the row's actions off a 1280 px screen.
  { accessorKey: '_id', header: t('adminPayments.column.id'), meta: { className: 'max-w-36 font-mono text-xs break-all whitespace-normal' } },
  userColumn(t('adminPayments.column.user')),
  // In full: the admin copies it into the wallet that pays out.
  { accessorKey: 'wallet', header: t('adminPayments.column.wallet'), meta: { className: 'max-w-48 font-mono text-xs break-all whitespace-normal' } },
  { id: 'amount', header: t('adminPayments.column.amount'), accessorFn: (cashout) => formatUsd(cashout.amountUsd), meta: { className: 'tabular-nums' } },
  { id: 'eth', header: t('adminPayments.column.eth'), accessorFn: (cashout) => cashout.amountEth ?? '—', meta: { className: 'tabular-nums' } },
  { id: 'status', header: t('adminPayments.column.status'), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  dayColumn(),
  {
    id: 'payout',
    header: t('adminPayments.column.payout'),
    cell: ({ row }) =>
      row.original.status === 'HELD' ? (
        <span className="text-xs whitespace-normal text-muted-foreground">{t('adminPayments.cashouts.held', { time: formatTime(row.original.holdUntil) })}</span>
      ) : (
        <PayoutState status={row.original.status} payoutTxHash={row.original.payoutTxHash} check={row.original.check} />
      ),
  },
  actionsColumn((cashout) => <CashoutActions cashout={cashout} />),
];

/**
 * /admin/cashouts: the payout queue, newest first: cashout requests, then refunds. Each
 * is paid by hand and marked paid with its transaction's hash, which the worker verifies.
 */
export function CashoutListPage() {
  const [status] = useListParam('status');
  const list = useCashouts(status);
  const columns = useMemo(() => cashoutColumns(), []);

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('adminPayments.cashouts.title')} />
      <DataTable
        columns={columns}
        list={list}
        label={t('adminPayments.cashouts.label')}
        emptyText={status ? t('adminPayments.cashouts.emptyFiltered') : t('adminPayments.cashouts.empty')}
        moreLabel={t('adminPayments.cashouts.more')}
        // Open requests are found however old they are: the filter asks the api for them alone.
        toolbar={<StatusFilter label={t('adminPayments.cashouts.label')} options={cashoutFilters()} />}
      />
      <RefundList />
    </section>
  );
}
