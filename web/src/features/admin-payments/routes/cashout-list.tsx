import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { PageHeader } from '@/components/page-header';
import { StatusFilter, useListParam } from '@/components/list-filters';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { useCashouts } from '../api/get-cashouts';
import { CashoutActions } from '../components/cashout-actions';
import { PayoutState } from '../components/payout-state';
import { RefundList } from '../components/refund-list';
import { StatusBadge } from '@/components/status-badge';
import { UserCell } from '../components/user-cell';

/**
 * /admin/cashouts: the payout queue, newest first: cashout requests, then refunds. Each
 * is paid by hand and marked paid with its transaction's hash, which the worker verifies.
 */
const CASHOUT_FILTERS = [
  { value: '', label: 'All' },
  { value: 'REQUESTED,NOTIFIED', label: 'Waiting to be paid' },
  { value: 'PAID', label: 'Paid' },
  { value: 'REJECTED', label: 'Rejected' },
];

export function CashoutListPage() {
  const [status] = useListParam('status');
  const list = useCashouts(status);
  const { data: cashouts, isPending, error } = list;

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Cashouts" />
      {/* Open requests are found however old they are: the filter asks the api for them alone. */}
      <StatusFilter label="Cashout requests" options={CASHOUT_FILTERS} />
      <AdminTableState
        isPending={isPending}
        error={error}
        isEmpty={cashouts?.length === 0}
        emptyText={status ? 'No cashout request is in this state.' : 'There are no cashout requests yet.'}
      >
        <Table aria-label="Cashout requests">
          <TableHeader>
            <TableRow>
              <TableHead>ID</TableHead>
              <TableHead>USER</TableHead>
              <TableHead>WALLET</TableHead>
              <TableHead>AMOUNT</TableHead>
              <TableHead>ETH</TableHead>
              <TableHead>STATUS</TableHead>
              <TableHead>DATE</TableHead>
              <TableHead>PAYOUT</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {cashouts?.map((cashout) => (
              <TableRow key={cashout._id}>
                <TableCell className="font-mono text-xs">{cashout._id}</TableCell>
                <UserCell user={cashout.user} />
                {/* In full: the admin copies it into the wallet that pays out. */}
                <TableCell className="max-w-48 font-mono text-xs break-all whitespace-normal">{cashout.wallet}</TableCell>
                <TableCell className="tabular-nums">{formatUsd(cashout.amountUsd)}</TableCell>
                <TableCell className="tabular-nums">{cashout.amountEth ?? '—'}</TableCell>
                <TableCell>
                  <StatusBadge status={cashout.status} />
                </TableCell>
                <TableCell>{cashout.createdAt.substring(0, 10)}</TableCell>
                <TableCell>
                  <PayoutState status={cashout.status} payoutTxHash={cashout.payoutTxHash} check={cashout.check} />
                </TableCell>
                <TableCell className="text-right">
                  <CashoutActions cashout={cashout} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More cashouts" />
      <RefundList />
    </section>
  );
}
