import { useId, useMemo } from 'react';
import { Link } from '@/components/link';
import type { ColumnDef } from '@tanstack/react-table';
import { orderReference, type OverpaidOrderJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { actionsColumn } from '@/components/data-table-columns';
import { t } from '@/i18n/i18n';
import { formatUsd } from '@/lib/format';
import { useOverpaidOrders } from '../api/get-overpaid-orders';
import { useRefundOverpayment } from '../api/refund-overpayment';
import { RequestRefundAction } from './request-refund-action';
import { ShortHex } from './short-hex';
import { userColumn } from './user-cell';

/**
 * Refunds what is left of an order's overpayment: each transfer's part to the address
 * that sent it, or all of it to a wallet the admin names (required when a part has no
 * single sender).
 */
function RefundOverpaymentAction({ order }: { order: OverpaidOrderJson }) {
  const refund = useRefundOverpayment();
  const { refundable, from } = order.overpayment;
  return (
    <RequestRefundAction
      sender={refundable ? (from ?? t('adminPayments.overpayment.eachSender')) : null}
      label={t('adminPayments.overpayment.refund')}
      pending={refund.isPending}
      mutate={(target, { onSuccess, onError }) => refund.mutate({ orderId: order._id, ...target }, { onSuccess: () => onSuccess(), onError })}
    />
  );
}

/** Who sent the overpayment: one address, or each part's sender when they differ. */
function OverpaymentSenders({ overpayment }: { overpayment: OverpaidOrderJson['overpayment'] }) {
  if (overpayment.from || !overpayment.parts.length) return <ShortHex value={overpayment.from} />;
  return (
    <ul className="flex flex-col gap-1">
      {overpayment.parts.map((part) => (
        <li key={part.txHash}>
          <ShortHex value={part.from} />
        </li>
      ))}
    </ul>
  );
}

const overpaidColumns = (): ColumnDef<OverpaidOrderJson>[] => [
  {
    id: 'order',
    header: t('adminPayments.column.order'),
    cell: ({ row }) => (
      <Link to={`/admin/order/${row.original._id}`} className="underline underline-offset-4">
        {orderReference(row.original._id)}
      </Link>
    ),
    meta: { className: 'font-mono text-xs' },
  },
  userColumn(t('adminPayments.column.buyer')),
  { id: 'total', header: t('adminPayments.column.total'), accessorFn: (order) => formatUsd(order.totalPrice), meta: { className: 'tabular-nums' } },
  { id: 'paid', header: t('adminPayments.column.paid'), accessorFn: (order) => formatUsd(order.paidUsd), meta: { className: 'tabular-nums' } },
  {
    id: 'overpayment',
    header: t('adminPayments.column.overpayment'),
    cell: ({ row }) => (
      <>
        <div>{formatUsd(row.original.overpayment.usd)}</div>
        <div className="text-xs text-muted-foreground">{row.original.overpayment.eth} ETH</div>
      </>
    ),
    meta: { className: 'tabular-nums' },
  },
  { id: 'from', header: t('adminPayments.column.from'), cell: ({ row }) => <OverpaymentSenders overpayment={row.original.overpayment} /> },
  actionsColumn((order) => <RefundOverpaymentAction order={order} />),
];

/**
 * Paid orders that received more than their total, which the buyer has neither added to
 * a balance nor had refunded yet.
 */
export function OverpaidOrders() {
  const headingId = useId();
  const list = useOverpaidOrders();
  const columns = useMemo(() => overpaidColumns(), []);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-xl font-semibold tracking-tight">
          {t('adminPayments.overpaid.heading')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('adminPayments.overpaid.description')}</p>
      </div>
      <DataTable
        columns={columns}
        list={list}
        label={t('adminPayments.overpaid.heading')}
        emptyText={t('adminPayments.overpaid.empty')}
        moreLabel={t('adminPayments.overpaid.more')}
      />
    </section>
  );
}
