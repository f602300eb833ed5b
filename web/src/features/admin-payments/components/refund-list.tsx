import { useId, useMemo } from 'react';
import { Link } from '@/components/link';
import type { ColumnDef } from '@tanstack/react-table';
import { orderReference, type RefundJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn, dayColumn } from '@/components/data-table-columns';
import { StatusBadge } from '@/components/status-badge';
import { t, type MessageKey } from '@/i18n/i18n';
import { formatUsd } from '@/lib/format';
import { useRefunds } from '../api/get-refunds';
import { PayoutState } from './payout-state';
import { RefundActions } from './refund-actions';
import { userColumn } from './user-cell';

const SOURCES: Record<RefundJson['source'], MessageKey> = { TRANSFER: 'adminPayments.refunds.sourceTransfer', OVERPAYMENT: 'adminPayments.refunds.sourceOverpayment' };

const WALLET_SOURCES: Record<RefundJson['walletSource'], MessageKey> = {
  sender: 'adminPayments.refunds.walletSender',
  admin: 'adminPayments.refunds.walletAdmin',
  claim: 'adminPayments.refunds.walletClaim',
};

const refundColumns = (): ColumnDef<RefundJson>[] => [
  dayColumn(),
  { id: 'source', header: t('adminPayments.column.source'), accessorFn: (refund) => t(SOURCES[refund.source]) },
  {
    id: 'order',
    header: t('adminPayments.column.order'),
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
  userColumn(t('adminPayments.column.buyer')),
  {
    // In full: the admin copies it into the wallet that pays out.
    id: 'wallet',
    header: t('adminPayments.column.wallet'),
    cell: ({ row }) => (
      <>
        <div className="font-mono text-xs break-all">{row.original.wallet}</div>
        <div className="text-xs text-muted-foreground">{t(WALLET_SOURCES[row.original.walletSource])}</div>
      </>
    ),
    meta: { className: 'max-w-48 whitespace-normal' },
  },
  { accessorKey: 'amountText', header: t('adminPayments.column.amount'), meta: { className: 'tabular-nums' } },
  {
    id: 'usd',
    header: t('adminPayments.column.usd'),
    accessorFn: (refund) => (refund.amountUsd === null ? '—' : formatUsd(refund.amountUsd)),
    meta: { className: 'tabular-nums' },
  },
  { id: 'status', header: t('adminPayments.column.status'), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  {
    id: 'payout',
    header: t('adminPayments.column.payout'),
    cell: ({ row }) => <PayoutState status={row.original.status} payoutTxHash={row.original.payoutTxHash} check={row.original.check} />,
  },
  actionsColumn((refund) => <RefundActions refund={refund} />),
];

/** The Cashouts page's second queue: transfers and overpayments to send back, newest first. */
export function RefundList() {
  const headingId = useId();
  const list = useRefunds();
  const columns = useMemo(() => refundColumns(), []);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-xl font-semibold tracking-tight">
          {t('adminPayments.refunds.heading')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('adminPayments.refunds.description')}</p>
      </div>
      <DataTable columns={columns} list={list} label={t('adminPayments.refunds.heading')} emptyText={t('adminPayments.refunds.empty')} moreLabel={t('adminPayments.refunds.more')} />
    </section>
  );
}
