import { useId } from 'react';
import { Link } from '@/components/link';
import type { ColumnDef } from '@tanstack/react-table';
import { orderReference, type RefundJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn, dayColumn } from '@/components/data-table-columns';
import { StatusBadge } from '@/components/status-badge';
import { formatUsd } from '@/lib/format';
import { useRefunds } from '../api/get-refunds';
import { PayoutState } from './payout-state';
import { RefundActions } from './refund-actions';
import { userColumn } from './user-cell';

const SOURCES: Record<RefundJson['source'], string> = { TRANSFER: 'Transfer', OVERPAYMENT: 'Overpayment' };

const WALLET_SOURCES: Record<RefundJson['walletSource'], string> = {
  sender: 'The sender',
  admin: 'Named by an admin',
  claim: 'Signed for by the sender',
};

const REFUND_COLUMNS: ColumnDef<RefundJson>[] = [
  dayColumn(),
  { id: 'source', header: 'SOURCE', accessorFn: (refund) => SOURCES[refund.source] },
  {
    id: 'order',
    header: 'ORDER',
    cell: ({ row }) =>
      row.original.order ? (
        <Link to={`/admin/order/${row.original.order}`} className="underline underline-offset-4">
          {orderReference(row.original.order)}
        </Link>
      ) : (
        '—'
      ),
    meta: { className: 'font-mono text-xs' },
  },
  userColumn('BUYER'),
  {
    // In full: the admin copies it into the wallet that pays out.
    id: 'wallet',
    header: 'WALLET',
    cell: ({ row }) => (
      <>
        <div className="font-mono text-xs break-all">{row.original.wallet}</div>
        <div className="text-xs text-muted-foreground">{WALLET_SOURCES[row.original.walletSource]}</div>
      </>
    ),
    meta: { className: 'max-w-48 whitespace-normal' },
  },
  { accessorKey: 'amountText', header: 'AMOUNT', meta: { className: 'tabular-nums' } },
  {
    id: 'usd',
    header: 'USD',
    accessorFn: (refund) => (refund.amountUsd === null ? '—' : formatUsd(refund.amountUsd)),
    meta: { className: 'tabular-nums' },
  },
  { id: 'status', header: 'STATUS', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  {
    id: 'payout',
    header: 'PAYOUT',
    cell: ({ row }) => <PayoutState status={row.original.status} payoutTxHash={row.original.payoutTxHash} check={row.original.check} />,
  },
  actionsColumn((refund) => <RefundActions refund={refund} />),
];

/** The Cashouts page's second queue: transfers and overpayments to send back, newest first. */
export function RefundList() {
  const headingId = useId();
  const list = useRefunds();

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-xl font-semibold tracking-tight">
          Refunds
        </h2>
        <p className="text-sm text-muted-foreground">
          Send the ETH to the wallet shown, then mark the refund paid with the transaction&apos;s hash: it is paid once the worker
          has verified that transaction on chain.
        </p>
      </div>
      <DataTable columns={REFUND_COLUMNS} list={list} label="Refunds" emptyText="There are no refunds yet." moreLabel="More refunds" />
    </section>
  );
}
