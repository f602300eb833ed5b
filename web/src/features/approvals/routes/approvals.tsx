import { Link } from '@/components/link';
import { useMemo } from 'react';
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
import { t, type MessageKey } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { formatAmount, formatSignedUsd, formatTime, formatUsd } from '@/lib/format';
import { useUserInfo } from '@/stores/auth-store';
import { useApprovals, useDecideApproval, type Decision } from '../api/approvals';


/** What the request is worth: admin rights are worth no amount; a payout no price could value says so; a package what one pays over its term. */
const worth = (a: ApprovalJson) =>
  a.kind === 'ADMIN_GRANT'
    ? '-'
    : a.amountUsd === null
      ? t('approvals.notValued')
      : a.kind === 'PACKAGE'
        ? t('approvals.perPackage', { amount: formatUsd(a.amountUsd) })
        : formatUsd(a.amountUsd);

/** Where the money goes: the payout's wallet (and its user), the user, or a package's buyers. */
const destination = (a: ApprovalJson) =>
  a.kind === 'PACKAGE' ? t('approvals.packageBuyers') : [a.wallet, a.beneficiary?.email].filter(Boolean).join(' / ') || t('approvals.theSender');

/** A package's terms: what it credits a day, for how long, and its price. */
const terms = (p: { price: string; dailyCredit: string; durationDays: number }) => t('approvals.terms', { daily: formatAmount(p.dailyCredit), days: p.durationDays, price: formatAmount(p.price) });

/** On a phone, where the AMOUNT, TO and ASKED BY columns are hidden: the same in one line. */
function Who({ approval }: { approval: ApprovalJson }) {
  return (
    <span className="block text-xs text-muted-foreground md:hidden">
      {approval.kind === 'ADMIN_GRANT'
        ? t('approvals.whoFor', { destination: destination(approval), by: approval.requestedBy?.email ?? '-' })
        : t('approvals.who', { worth: worth(approval), destination: destination(approval), by: approval.requestedBy?.email ?? '-' })}
    </span>
  );
}

/** 'Package on sale' or 'Package change': its terms once approved (and before, for a change), the stock once approved (and added) and what it pays in all. */
function PackageTerms({ approval }: { approval: ApprovalJson }) {
  const p = approval.package;
  if (!p) return null;
  const stock = p.stockAdded ? t('approvals.stockAdded', { stock: p.stockOnceApproved, added: `${p.stockAdded > 0 ? '+' : ''}${p.stockAdded}` }) : String(p.stockOnceApproved);
  return (
    <span>
      <Link className="underline-offset-4 hover:underline" to={`/admin/products/${approval.subject.id}/edit`}>
        {t(p.publish ? 'approvals.packageOnSale' : 'approvals.packageChange', { name: p.name })}
      </Link>
      <span className="block text-xs text-muted-foreground">
        {t('approvals.packageLine', { terms: p.was ? t('approvals.termsWas', { terms: terms(p), was: terms(p.was) }) : terms(p), stock, pays: formatAmount(p.stockPaysUsd) })}
      </span>
      <Who approval={approval} />
    </span>
  );
}

/** Why the asking admin wants it, under what it is (requests made before a reason was asked for have none). */
function Reason({ approval }: { approval: ApprovalJson }) {
  return (
    <span className="mt-1 block text-xs break-words whitespace-normal">
      <span className="font-medium">{t('approvals.reasonLabel')}</span> {approval.reason ?? <span className="text-muted-foreground">{t('approvals.noneGiven')}</span>}
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
  [
    change.active !== '0.00' ? t('approvals.changeActive', { amount: formatSignedUsd(change.active) }) : '',
    change.passive !== '0.00' ? t('approvals.changePassive', { amount: formatSignedUsd(change.passive) }) : '',
  ]
    .filter(Boolean)
    .join(', ');

/** What approving does, said before the admin confirms it. */
function approvalEffect(a: ApprovalJson): string {
  const user = a.beneficiary?.email ?? t('approvals.theUser');
  if (a.kind === 'BALANCE_INCREASE') {
    return a.change ? t('approvals.effect.balanceChange', { user, change: changeText(a.change) }) : t('approvals.effect.balance', { user });
  }
  if (a.kind === 'ADMIN_GRANT') return t('approvals.effect.admin', { user });
  if (a.kind === 'PACKAGE') {
    const p = a.package;
    if (!p) return t('approvals.effect.package');
    const values = { name: p.name, daily: formatAmount(p.dailyCredit), days: p.durationDays, price: formatAmount(p.price), stock: p.stockOnceApproved, pays: formatAmount(p.stockPaysUsd) };
    return t(p.publish ? 'approvals.effect.packageOnSale' : 'approvals.effect.packageChange', values);
  }
  return t(a.subject.type === 'cashout' ? 'approvals.effect.cashout' : 'approvals.effect.refund', { worth: worth(a), destination: destination(a) });
}

/** 'Balance increase' with the change to each balance, 'Cashout payout' / 'Refund payout', or a package's terms. */
function What({ approval }: { approval: ApprovalJson }) {
  if (approval.kind === 'PACKAGE') return <PackageTerms approval={approval} />;
  if (approval.kind === 'ADMIN_GRANT') {
    return (
      <span>
        <Link className="underline-offset-4 hover:underline" to={`/admin/user/${approval.subject.id}/edit`}>
          {t('approvals.what.adminRights')}
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
          {t('approvals.what.balanceIncrease')}
        </Link>
        {change ? <span className="block text-xs text-muted-foreground">{changeText(change)}</span> : null}
        <Who approval={approval} />
      </span>
    );
  }
  return (
    <span>
      <Link className="underline-offset-4 hover:underline" to="/admin/cashouts">
        {t(approval.subject.type === 'cashout' ? 'approvals.what.cashoutPayout' : 'approvals.what.refundPayout')}
      </Link>
      <Who approval={approval} />
    </span>
  );
}

const APPROVED_MESSAGE: Record<ApprovalJson['kind'], MessageKey> = {
  BALANCE_INCREASE: 'approvals.approved.balance',
  PAYOUT: 'approvals.approved.payout',
  ADMIN_GRANT: 'approvals.approved.admin',
  PACKAGE: 'approvals.approved.package',
};

const DONE: Record<Decision, (a: ApprovalJson) => MessageKey> = {
  approve: (a) => APPROVED_MESSAGE[a.kind],
  reject: () => 'approvals.rejected',
  withdraw: () => 'approvals.withdrawn',
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
        {approval.decidedBy
          ? t(approval.status === 'APPROVED' ? 'approvals.decided.approvedBy' : 'approvals.decided.rejectedBy', { email: approval.decidedBy.email })
          : t(approval.status === 'APPROVED' ? 'approvals.decided.approved' : 'approvals.decided.rejected')}
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
      () => toast.success(t(DONE[decision](approval))),
      (error: unknown) => toast.error(getErrorMessage(error)),
    );
  if (own) {
    return (
      <div className="flex flex-wrap justify-end gap-2">
        <span className="self-center text-right text-xs text-muted-foreground">{t('approvals.own')}</span>
        <Button size="sm" variant="outline" icon={<Undo2 aria-hidden="true" />} disabled={decide.isPending} onClick={() => run('withdraw')}>
          {t('approvals.withdraw')}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {toMe ? (
        <span className="self-center text-right text-xs text-muted-foreground">{t('approvals.toMe')}</span>
      ) : (
        <ConfirmAction
          title={t('approvals.confirmTitle')}
          description={
            // A wallet is 42 characters with nowhere to wrap on a phone.
            <span className="[overflow-wrap:anywhere]">
              {t('approvals.confirmDescription', {
                effect: approvalEffect(approval),
                by: approval.requestedBy?.email ?? t('approvals.anotherAdmin'),
                reason: approval.reason ?? t('approvals.noReason'),
              })}
            </span>
          }
          confirmLabel={t('approvals.approve')}
          onConfirm={() => run('approve')}
        >
          <Button size="sm" icon={<Check aria-hidden="true" />} disabled={decide.isPending}>
            {t('approvals.approve')}
          </Button>
        </ConfirmAction>
      )}
      <Button size="sm" variant="outline" icon={<X aria-hidden="true" />} disabled={decide.isPending} onClick={() => run('reject')}>
        {t('approvals.reject')}
      </Button>
    </div>
  );
}

const approvalColumns = (): ColumnDef<ApprovalJson>[] => [
  { id: 'at', header: t('approvals.column.asked'), cell: ({ row }) => <time dateTime={row.original.createdAt}>{formatTime(row.original.createdAt)}</time>, meta: { hideOnPhone: true } },
  { id: 'what', header: t('approvals.column.what'), cell: ({ row }) => <WhatAndWhy approval={row.original} />, meta: { className: 'min-w-44 whitespace-normal' } },
  { id: 'amount', header: t('approvals.column.amount'), cell: ({ row }) => worth(row.original), meta: { className: 'whitespace-nowrap' } },
  { id: 'for', header: t('approvals.column.to'), cell: ({ row }) => destination(row.original), meta: { className: 'whitespace-normal [overflow-wrap:anywhere]' } },
  { id: 'by', header: t('approvals.column.askedBy'), cell: ({ row }) => row.original.requestedBy?.email ?? '-', meta: { hideOnPhone: true } },
  { id: 'decide', header: '', cell: ({ row }) => <Decide approval={row.original} />, meta: { className: 'text-right whitespace-normal', actions: true } },
];

const statusOptions = () => [
  { value: '', label: t('approvals.filterWaiting') },
  { value: 'APPROVED', label: t('approvals.filterApproved') },
  { value: 'REJECTED', label: t('approvals.filterRejected') },
  { value: 'PENDING,APPROVED,REJECTED', label: t('approvals.filterAll') },
];

/** 'Approvals': large money moves waiting for a second admin, and those decided. */
export function ApprovalsPage() {
  const [status] = useListParam('status');
  const list = useApprovals({ status: status || 'PENDING' });
  const columns = useMemo(() => approvalColumns(), []);
  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('approvals.title')} />
      <p className="text-sm text-muted-foreground">{t('approvals.description')}</p>
      <DataTable
        columns={columns}
        list={list}
        emptyText={status ? t('approvals.emptyFiltered') : t('approvals.empty')}
        moreLabel={t('approvals.more')}
        toolbar={<StatusFilter label={t('approvals.filter')} options={statusOptions()} />}
      />
    </section>
  );
}
