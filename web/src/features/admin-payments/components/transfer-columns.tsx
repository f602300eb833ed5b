import type { ColumnDef } from '@tanstack/react-table';
import type { AdminPaymentJson } from '@shop/core/contract';
import { t } from '@/i18n/i18n';
import { paymentAmount } from '@/lib/asset-amount';
import { formatUsd } from '@/lib/format';
import { ShortHex } from './short-hex';

/** A transfer's hash, sender, value in its asset and USD value: the first columns of every transfer table. */
export const transferColumns = (): ColumnDef<AdminPaymentJson>[] => [
  { id: 'txHash', header: t('adminPayments.column.txHash'), cell: ({ row }) => <ShortHex value={row.original.txHash} /> },
  { id: 'from', header: t('adminPayments.column.from'), cell: ({ row }) => <ShortHex value={row.original.from} /> },
  { id: 'value', header: t('adminPayments.column.value'), accessorFn: (payment) => paymentAmount(payment), meta: { className: 'tabular-nums' } },
  {
    id: 'usd',
    header: t('adminPayments.column.usd'),
    accessorFn: (payment) => (payment.usdValue === null ? '—' : formatUsd(payment.usdValue)),
    meta: { className: 'tabular-nums' },
  },
];
