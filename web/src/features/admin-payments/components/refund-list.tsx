import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { RefundJson } from '@shop/core/contract';
import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatUsd } from '@/lib/format';
import { useRefunds } from '../api/get-refunds';
import { PayoutState } from './payout-state';
import { RefundActions } from './refund-actions';
import { StatusBadge } from '@/components/status-badge';
import { UserCell } from './user-cell';

const SOURCES: Record<RefundJson['source'], string> = { TRANSFER: 'Transfer', OVERPAYMENT: 'Overpayment' };

const WALLET_SOURCES: Record<RefundJson['walletSource'], string> = {
  sender: 'The sender',
  admin: 'Named by an admin',
  claim: 'Signed for by the sender',
};

/** The Cashouts page's second queue: transfers and overpayments to send back, newest first. */
export function RefundList() {
  const headingId = useId();
  const list = useRefunds();
  const { data: refunds, isPending, error } = list;

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
      <AdminTableState isPending={isPending} error={error} isEmpty={refunds?.length === 0} emptyText="There are no refunds yet.">
        <Table aria-label="Refunds">
          <TableHeader>
            <TableRow>
              <TableHead>DATE</TableHead>
              <TableHead>SOURCE</TableHead>
              <TableHead>ORDER</TableHead>
              <TableHead>BUYER</TableHead>
              <TableHead>WALLET</TableHead>
              <TableHead>ETH</TableHead>
              <TableHead>USD</TableHead>
              <TableHead>STATUS</TableHead>
              <TableHead>PAYOUT</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {refunds?.map((refund) => (
              <TableRow key={refund._id}>
                <TableCell>{refund.createdAt.substring(0, 10)}</TableCell>
                <TableCell>{SOURCES[refund.source]}</TableCell>
                <TableCell className="font-mono text-xs">
                  {refund.order ? (
                    <Link to={`/order/${refund.order}`} className="underline underline-offset-4">
                      {refund.order}
                    </Link>
                  ) : (
                    '—'
                  )}
                </TableCell>
                <UserCell user={refund.user} />
                {/* In full: the admin copies it into the wallet that pays out. */}
                <TableCell className="max-w-48 whitespace-normal">
                  <div className="font-mono text-xs break-all">{refund.wallet}</div>
                  <div className="text-xs text-muted-foreground">{WALLET_SOURCES[refund.walletSource]}</div>
                </TableCell>
                <TableCell className="tabular-nums">{refund.amountEth}</TableCell>
                <TableCell className="tabular-nums">{refund.amountUsd === null ? '—' : formatUsd(refund.amountUsd)}</TableCell>
                <TableCell>
                  <StatusBadge status={refund.status} />
                </TableCell>
                <TableCell>
                  <PayoutState status={refund.status} payoutTxHash={refund.payoutTxHash} check={refund.check} />
                </TableCell>
                <TableCell className="text-right">
                  <RefundActions refund={refund} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} label="More refunds" />
    </section>
  );
}
