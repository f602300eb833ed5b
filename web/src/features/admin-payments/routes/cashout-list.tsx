import type { ColumnDef } from '@tanstack/react-table';
import type { CashoutJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn, dayColumn } from '@/components/data-table-columns';
import { PageHeader } from '@/components/page-header';
import { StatusFilter } from '@/components/list-filter-fields';
import { useListParam } from '@/components/list-filters';
import { StatusBadge } from '@/components/status-badge';
import { formatTime, formatUsd } from '@/lib/format';
import { useCashouts } from '../api/get-cashouts';
import { CashoutActions } from '../components/cashout-actions';
import { PayoutState } from '../components/payout-state';
import { RefundList } from '../components/refund-list';
import { userColumn } from '../components/user-cell';

const CASHOUT_FILTERS = [
  { value: '', label: 'All' },
  { value: 'REQUESTED,NOTIFIED', label: 'Waiting to be paid' },
  { value: 'HELD', label: 'New wallet, waiting' },
  { value: 'PAID', label: 'Paid' },
  { value: 'REJECTED', label: 'Rejected' },
  { value: 'CANCELLED', label: 'Cancelled by the owner' },
];

const CASHOUT_COLUMNS: ColumnDef<CashoutJson>[] = [
  // Wrapped, like the wallet: in one line it pushed the row's actions off a 1280 px screen.
  { accessorKey: '_id', header: 'ID', meta: { className: 'max-w-36 font-mono text-xs break-all whitespace-normal' } },
  userColumn('USER'),
  // In full: the admin copies it into the wallet that pays out.
  { accessorKey: 'wallet', header: 'WALLET', meta: { className: 'max-w-48 font-mono text-xs break-all whitespace-normal' } },
  { id: 'amount', header: 'AMOUNT', accessorFn: (cashout) => formatUsd(cashout.amountUsd), meta: { className: 'tabular-nums' } },
  { id: 'eth', header: 'ETH', accessorFn: (cashout) => cashout.amountEth ?? '—', meta: { className: 'tabular-nums' } },
  { id: 'status', header: 'STATUS', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  dayColumn(),
  {
    id: 'payout',
    header: 'PAYOUT',
    cell: ({ row }) =>
      row.original.status === 'HELD' ? (
        <span className="text-xs whitespace-normal text-muted-foreground">{`A wallet new to the account: waits until ${formatTime(row.original.holdUntil)}`}</span>
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

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Cashouts" />
      <DataTable
        columns={CASHOUT_COLUMNS}
        list={list}
        label="Cashout requests"
        emptyText={status ? 'No cashout request is in this state.' : 'There are no cashout requests yet.'}
        moreLabel="More cashouts"
        // Open requests are found however old they are: the filter asks the api for them alone.
        toolbar={<StatusFilter label="Cashout requests" options={CASHOUT_FILTERS} />}
      />
      <RefundList />
    </section>
  );
}
