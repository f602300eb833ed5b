import { Link } from '@/components/link';
import type { ColumnDef } from '@tanstack/react-table';
import { Check, Undo2, X } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { ApprovalJson } from '@shop/core/contract';
import { ConfirmAction } from '@/components/confirm-action';
import { DataTable } from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { StatusFilter } from '@/components/list-filter-fields';
import { useListParam } from '@/components/list-filters';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { formatTime } from '@/lib/format';
import { useUserInfo } from '@/stores/auth-store';
import { useApprovals, useDecideApproval, type Decision } from '../api/approvals';

const usd = (n: number) => `USD $${n.toFixed(2)}`;

/** What the request is worth: admin rights are worth no amount; a payout no price could value says so; a package what one pays over its term. */
const worth = (a: ApprovalJson) =>
  a.kind === 'ADMIN_GRANT' ? '-' : a.amountUsd === null ? 'not valued (no ETH price)' : a.kind === 'PACKAGE' ? `${usd(a.amountUsd)} per package` : usd(a.amountUsd);

/** Where the money goes: the payout's wallet (and its user), the user, or a package's buyers. */
const destination = (a: ApprovalJson) => (a.kind === 'PACKAGE' ? "the package's buyers" : [a.wallet, a.beneficiary?.email].filter(Boolean).join(' / ') || 'the sender');
const signed = (v: string) => (v.startsWith('-') ? `-$${v.slice(1)}` : `+$${v}`);

/** On a phone, where the AMOUNT, TO and ASKED BY columns are hidden: the same in one line. */
function Who({ approval }: { approval: ApprovalJson }) {
  return (
    <span className="block text-xs text-muted-foreground md:hidden">
      {approval.kind === 'ADMIN_GRANT' ? 'for' : `${worth(approval)} to`} {destination(approval)}, asked by {approval.requestedBy?.email ?? '-'}
    </span>
  );
}

/** 'Package on sale' or 'Package change': its terms once approved (and before, for a change), the stock once approved (and added) and what it pays in all. */
function PackageTerms({ approval }: { approval: ApprovalJson }) {
  const p = approval.package;
  if (!p) return null;
  const terms = (t: { price: string; dailyCredit: string; durationDays: number }) => `$${t.dailyCredit} a day for ${t.durationDays} days, price $${t.price}`;
  return (
    <span>
      <Link className="underline-offset-4 hover:underline" to={`/admin/products/${approval.subject.id}/edit`}>
        {p.publish ? 'Package on sale' : 'Package change'}: {p.name}
      </Link>
      <span className="block text-xs text-muted-foreground">
        {terms(p)}
        {p.was ? ` (was ${terms(p.was)})` : ''}
        {`, stock ${p.stockOnceApproved}${p.stockAdded ? ` (${p.stockAdded > 0 ? '+' : ''}${p.stockAdded})` : ''}, paying $${p.stockPaysUsd} in all`}
      </span>
      <Who approval={approval} />
    </span>
  );
}

/** Why the asking admin wants it, under what it is (requests made before a reason was asked for have none). */
function Reason({ approval }: { approval: ApprovalJson }) {
  return (
    <span className="mt-1 block text-xs break-words whitespace-normal">
      <span className="font-medium">Reason:</span> {approval.reason ?? <span className="text-muted-foreground">none given</span>}
    </span>
  );
}

/** What the request is, and why it was asked. */
function WhatAndWhy({ approval }: { approval: ApprovalJson }) {
  return (
    <>
      <What approval={approval} />
      <Reason approval={approval} />
    </>
  );
}

/** The change a balance increase makes, in words: 'active +$600.00, passive +$10.00'. */
const changeText = (change: NonNullable<ApprovalJson['change']>) =>
  [change.active !== '0.00' ? `active ${signed(change.active)}` : '', change.passive !== '0.00' ? `passive ${signed(change.passive)}` : ''].filter(Boolean).join(', ');

/** What approving does, said before the admin confirms it. */
function approvalEffect(a: ApprovalJson): string {
  const user = a.beneficiary?.email ?? 'the user';
  if (a.kind === 'BALANCE_INCREASE') return `${user}'s balance changes at once through the ledger${a.change ? `: ${changeText(a.change)}` : ''}.`;
  if (a.kind === 'ADMIN_GRANT') return `${user} becomes an admin at once, with every admin right.`;
  if (a.kind === 'PACKAGE') {
    const p = a.package;
    if (!p) return 'The package change is applied at once.';
    return `${p.publish ? `${p.name} goes on sale` : `${p.name} changes`} at once: $${p.dailyCredit} a day for ${p.durationDays} days, price $${p.price}, stock ${p.stockOnceApproved}, paying $${p.stockPaysUsd} in all.`;
  }
  return `The ${a.subject.type} of ${worth(a)} to ${destination(a)} may then be sent and marked paid.`;
}

/** 'Balance increase' with the change to each balance, 'Cashout payout' / 'Refund payout', or a package's terms. */
function What({ approval }: { approval: ApprovalJson }) {
  if (approval.kind === 'PACKAGE') return <PackageTerms approval={approval} />;
  if (approval.kind === 'ADMIN_GRANT') {
    return (
      <span>
        <Link className="underline-offset-4 hover:underline" to={`/admin/user/${approval.subject.id}/edit`}>
          Admin rights
        </Link>
        <Who approval={approval} />
      </span>
    );
  }
  if (approval.kind === 'BALANCE_INCREASE') {
    const { change } = approval;
    return (
      <span>
        <Link className="underline-offset-4 hover:underline" to={`/admin/user/${approval.subject.id}/edit`}>
          Balance increase
        </Link>
        {change ? <span className="block text-xs text-muted-foreground">{changeText(change)}</span> : null}
        <Who approval={approval} />
      </span>
    );
  }
  return (
    <span>
      <Link className="underline-offset-4 hover:underline" to="/admin/cashouts">
        {approval.subject.type === 'cashout' ? 'Cashout payout' : 'Refund payout'}
      </Link>
      <Who approval={approval} />
    </span>
  );
}

const APPROVED_MESSAGE: Record<ApprovalJson['kind'], string> = {
  BALANCE_INCREASE: 'Approved. The balance was changed.',
  PAYOUT: 'Approved. The payout can be sent and marked paid.',
  ADMIN_GRANT: 'Approved. The user is an admin now.',
  PACKAGE: 'Approved. The package is changed, or on sale.',
};

const DONE: Record<Decision, (a: ApprovalJson) => string> = {
  approve: (a) => APPROVED_MESSAGE[a.kind],
  reject: () => 'Request rejected.',
  withdraw: () => 'Request withdrawn.',
};

/**
 * Approve / reject for another admin's pending request (both ask for a second factor when
 * one was not given in the last minutes); the admin who asked may only withdraw theirs.
 */
function Decide({ approval }: { approval: ApprovalJson }) {
  const me = useUserInfo();
  const decide = useDecideApproval();
  if (approval.status !== 'PENDING') {
    return (
      <span className="text-xs">
        {approval.status === 'APPROVED' ? 'Approved' : 'Rejected'}
        {approval.decidedBy ? ` by ${approval.decidedBy.email}` : ''}
        {approval.decidedAt ? <span className="block text-muted-foreground">{formatTime(approval.decidedAt)}</span> : null}
      </span>
    );
  }
  const own = approval.requestedBy?._id === me?._id;
  const toMe = approval.beneficiary?._id === me?._id;
  // The promise, not mutate's callbacks: once decided, the row may leave the list (and this
  // component unmount) before the callbacks would run, and the toast would never show.
  const run = (decision: Decision) =>
    void decide.mutateAsync({ id: approval._id, decision }).then(
      () => toast.success(DONE[decision](approval)),
      (error: unknown) => toast.error(getErrorMessage(error)),
    );
  if (own) {
    return (
      <div className="flex flex-wrap justify-end gap-2">
        <span className="self-center text-right text-xs text-muted-foreground">Your request: another admin approves it</span>
        <Button size="sm" variant="outline" icon={<Undo2 aria-hidden="true" />} disabled={decide.isPending} onClick={() => run('withdraw')}>
          Withdraw
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {toMe ? (
        <span className="self-center text-right text-xs text-muted-foreground">Money to you: another admin approves it</span>
      ) : (
        <ConfirmAction
          title="Approve this request?"
          description={
            // A wallet is 42 characters with nowhere to wrap on a phone.
            <span className="[overflow-wrap:anywhere]">
              {approvalEffect(approval)} Asked by {approval.requestedBy?.email ?? 'another admin'}: {approval.reason ?? 'no reason given'}.
            </span>
          }
          confirmLabel="Approve"
          onConfirm={() => run('approve')}
        >
          <Button size="sm" icon={<Check aria-hidden="true" />} disabled={decide.isPending}>
            Approve
          </Button>
        </ConfirmAction>
      )}
      <Button size="sm" variant="outline" icon={<X aria-hidden="true" />} disabled={decide.isPending} onClick={() => run('reject')}>
        Reject
      </Button>
    </div>
  );
}

const COLUMNS: ColumnDef<ApprovalJson>[] = [
  { id: 'at', header: 'ASKED', cell: ({ row }) => <time dateTime={row.original.createdAt}>{formatTime(row.original.createdAt)}</time>, meta: { hideOnPhone: true } },
  { id: 'what', header: 'WHAT', cell: ({ row }) => <WhatAndWhy approval={row.original} />, meta: { className: 'min-w-44 whitespace-normal' } },
  { id: 'amount', header: 'AMOUNT', cell: ({ row }) => worth(row.original), meta: { className: 'whitespace-nowrap' } },
  { id: 'for', header: 'TO', cell: ({ row }) => destination(row.original), meta: { className: 'whitespace-normal [overflow-wrap:anywhere]' } },
  { id: 'by', header: 'ASKED BY', cell: ({ row }) => row.original.requestedBy?.email ?? '-', meta: { hideOnPhone: true } },
  { id: 'decide', header: '', cell: ({ row }) => <Decide approval={row.original} />, meta: { className: 'text-right whitespace-normal', actions: true } },
];

const STATUS_OPTIONS = [
  { value: '', label: 'Waiting' },
  { value: 'APPROVED', label: 'Approved' },
  { value: 'REJECTED', label: 'Rejected' },
  { value: 'PENDING,APPROVED,REJECTED', label: 'All' },
];

/** 'Approvals': large money moves waiting for a second admin, and those decided. */
export function ApprovalsPage() {
  const [status] = useListParam('status');
  const list = useApprovals({ status: status || 'PENDING' });
  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Approvals" />
      <p className="text-sm text-muted-foreground">
        Balance increases, refunds and cashout payouts worth more than one admin may move alone, packages that pay more than they cost, and new admins, wait here for a
        second admin. Nobody approves their own request, nor money that goes to them; the admin who asked may withdraw it, and rejecting another admin&apos;s asks for
        your second factor.
      </p>
      <DataTable
        columns={COLUMNS}
        list={list}
        emptyText={status ? 'Nothing here.' : 'Nothing waits for approval.'}
        moreLabel="More requests"
        toolbar={<StatusFilter label="Show" options={STATUS_OPTIONS} />}
      />
    </section>
  );
}
