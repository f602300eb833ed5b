import type { AdminPaymentJson } from '@shop/core/contract';
import { TableCell } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { ethValue } from './eth-value';
import { ShortHex } from './short-hex';

/** A transfer's hash, sender, ETH value and USD value: the first cells of every transfer row. */
export function TransferCells({ payment }: { payment: AdminPaymentJson }) {
  return (
    <>
      <TableCell>
        <ShortHex value={payment.txHash} />
      </TableCell>
      <TableCell>
        <ShortHex value={payment.from} />
      </TableCell>
      <TableCell className="tabular-nums">{ethValue(payment.valueWei)}</TableCell>
      <TableCell className="tabular-nums">{payment.usdValue === null ? '—' : formatUsd(payment.usdValue)}</TableCell>
    </>
  );
}
