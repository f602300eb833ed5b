import type { ColumnDef } from '@tanstack/react-table';
import type { AdminPaymentJson } from '@shop/core/contract';
import { paymentAmount } from '@/lib/asset-amount';
import { formatUsd } from '@/lib/format';
import { ShortHex } from './short-hex';

/** A transfer's hash, sender, value in its asset and USD value: the first columns of every transfer table. */
export const TRANSFER_COLUMNS: ColumnDef<AdminPaymentJson>[] = [
  { id: 'txHash', header: 'TX HASH', cell: ({ row }) => <ShortHex value={row.original.txHash} /> },
  { id: 'from', header: 'FROM', cell: ({ row }) => <ShortHex value={row.original.from} /> },
  { id: 'value', header: 'VALUE', accessorFn: (payment) => paymentAmount(payment), meta: { className: 'tabular-nums' } },
  {
    id: 'usd',
    header: 'USD',
    accessorFn: (payment) => (payment.usdValue === null ? '—' : formatUsd(payment.usdValue)),
    meta: { className: 'tabular-nums' },
  },
];
