import { RefreshCw } from 'lucide-react';
import { toast } from '@/lib/toast';
import { phoneCards } from '@/components/data-table';
import { ErrorAlert } from '@/components/error-alert';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { t, type MessageKey } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useReconciliation, useRunReconciliation } from '../api/get-reconciliation';

const utc = (iso: string | null) => formatTime(iso) || '-';

/** '1 discrepancy', '3 discrepancies'. */
const discrepancies = (count: number) => t('reconciliation.discrepancies', { count });

/** Each check of the reconciler (core/src/reconcile) by its name in the catalogue. */
const CHECK_NAMES: Record<string, MessageKey> = {
  'audit-chain': 'reconciliation.check.auditChain',
  'balance-ledger': 'reconciliation.check.balanceLedger',
  'cashout-ledger': 'reconciliation.check.cashoutLedger',
  'counted-incomplete': 'reconciliation.check.countedIncomplete',
  'counted-off-chain': 'reconciliation.check.countedOffChain',
  'covered-not-paid': 'reconciliation.check.coveredNotPaid',
  'deposit-missing': 'reconciliation.check.depositMissing',
  'deposit-unrecorded': 'reconciliation.check.depositUnrecorded',
  'inflow-also-traced': 'reconciliation.check.inflowAlsoTraced',
  'order-paid-sum': 'reconciliation.check.orderPaidSum',
  'overpayment-settled': 'reconciliation.check.overpaymentSettled',
  'paid-not-covered': 'reconciliation.check.paidNotCovered',
  'paid-without-term': 'reconciliation.check.paidWithoutTerm',
  'payment-stuck': 'reconciliation.check.paymentStuck',
  'payout-hash-twice': 'reconciliation.check.payoutHashTwice',
  'payout-off-chain': 'reconciliation.check.payoutOffChain',
  'payout-unverified': 'reconciliation.check.payoutUnverified',
  'referral-reward': 'reconciliation.check.referralReward',
  'refund-transfer': 'reconciliation.check.refundTransfer',
  'refunded-off-chain': 'reconciliation.check.refundedOffChain',
  'stock-held': 'reconciliation.check.stockHeld',
  'stock-log': 'reconciliation.check.stockLog',
  'sweep-mismatch': 'reconciliation.check.sweepMismatch',
  'sweep-off-chain': 'reconciliation.check.sweepOffChain',
  'sweep-unconfirmed': 'reconciliation.check.sweepUnconfirmed',
  'sweep-unproven': 'reconciliation.check.sweepUnproven',
  'tag-twice': 'reconciliation.check.tagTwice',
};

/** 'stock-held' -> 'Stock held', in the active language (a check not listed: its code, in words). */
const checkName = (check: string) => {
  const key = CHECK_NAMES[check];
  return key ? t(key) : check.charAt(0).toUpperCase() + check.slice(1).replace(/-/g, ' ');
};

/** What the reconciler counts in its report's `checked` (core/src/reconcile), by its name in the catalogue. */
const CHECKED_NAMES: Record<string, MessageKey> = {
  users: 'reconciliation.checked.users',
  orders: 'reconciliation.checked.orders',
  cashouts: 'reconciliation.checked.cashouts',
  refunds: 'reconciliation.checked.refunds',
  packages: 'reconciliation.checked.packages',
  chain: 'reconciliation.checked.chain',
  'transfers on chain': 'reconciliation.checked.transfersOnChain',
  'payouts on chain': 'reconciliation.checked.payoutsOnChain',
  sweeps: 'reconciliation.checked.sweeps',
  'deposit addresses': 'reconciliation.checked.depositAddresses',
  'token balances at deposit addresses': 'reconciliation.checked.tokenBalancesAtDepositAddresses',
  'quiet deposit addresses': 'reconciliation.checked.quietDepositAddresses',
  'audit entries': 'reconciliation.checked.auditEntries',
  'audit head': 'reconciliation.checked.auditHead',
  'discrepancies found': 'reconciliation.checked.discrepanciesFound',
};

/**
 * 'users 3, orders 5' in the active language ('пользователи: 3, заказы: 5'); a name not
 * listed is shown as the api sends it. A value in words (chain: 'not checked: ...') comes
 * from the api in the admin's language, as the findings' messages do.
 */
const checkedLine = (checked: Record<string, number | string>) =>
  Object.entries(checked)
    .map(([what, n]) => {
      const key = Object.hasOwn(CHECKED_NAMES, what) ? CHECKED_NAMES[what] : undefined;
      return t('reconciliation.checkedItem', { what: key ? t(key) : what, n: String(n) });
    })
    .join(', ');

/**
 * /admin/reconciliation: whether the books reconcile (balances and the ledger, orders
 * and their transfers on chain, rewards, cashouts, stock, tags), every discrepancy with
 * the ids to look at, and a button to check again now.
 */
export function ReconciliationPage() {
  const { data, isPending, error } = useReconciliation();
  const run = useRunReconciliation();
  const report = data?.report ?? null;
  // The audit runs in the worker: the button waits for its report.
  const auditing = run.isPending;

  const onRun = () =>
    run.mutate((started) => toast.info(started ? t('reconciliation.started') : t('reconciliation.alreadyRunning')), {
      onSuccess: (audit) => {
        if (!audit) toast.info(t('reconciliation.stillRunning'));
        else if (audit.discrepancies.length) toast.error(t('reconciliation.found', { count: audit.discrepancies.length }));
        else toast.success(t('reconciliation.reconciled'));
      },
      onError: (err) => toast.error(getErrorMessage(err)),
    });

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('reconciliation.title')}>
        <Button pending={auditing} icon={<RefreshCw aria-hidden="true" />} onClick={onRun} disabled={auditing}>
          {t(auditing ? 'reconciliation.auditing' : 'reconciliation.checkNow')}
        </Button>
      </PageHeader>
      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <ErrorAlert error={error} />
      ) : !report ? (
        <p className="rounded-xl border border-dashed px-6 py-10 text-center text-muted-foreground">{t('reconciliation.notChecked')}</p>
      ) : (
        <>
          <Alert variant={report.discrepancies.length ? 'destructive' : 'success'}>
            <AlertTitle>{report.discrepancies.length ? discrepancies(report.discrepancies.length) : t('reconciliation.reconcile')}</AlertTitle>
            <AlertDescription>
              {t(report.scope === 'changes' ? 'reconciliation.changes' : 'reconciliation.full', {
                since: utc(report.since),
                started: utc(report.startedAt),
                ms: String(report.durationMs),
                checked: checkedLine(report.checked),
              })}
            </AlertDescription>
          </Alert>
          {report.discrepancies.length ? (
            <div className="rounded-xl border">
              {/* A card per discrepancy on a phone, as in every admin list (DataTable). */}
              <Table className={phoneCards.table}>
                <TableHeader className={phoneCards.header}>
                  <TableRow>
                    <TableHead>{t('reconciliation.column.check')}</TableHead>
                    <TableHead>{t('reconciliation.column.wrong')}</TableHead>
                    <TableHead>{t('reconciliation.column.ids')}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody className={phoneCards.body}>
                  {report.discrepancies.map((d, i) => (
                    <TableRow key={`${d.check}-${i}`} className={phoneCards.row}>
                      <TableCell data-label={t('reconciliation.column.check')} className={cn('whitespace-nowrap', phoneCards.cell)}>
                        {checkName(d.check)}
                      </TableCell>
                      <TableCell data-label={t('reconciliation.column.wrong')} className={cn('max-w-96 whitespace-normal', phoneCards.cell)}>
                        {d.message}
                      </TableCell>
                      <TableCell data-label={t('reconciliation.column.ids')} className={cn('font-mono text-xs whitespace-normal break-all', phoneCards.cell)}>
                        {Object.entries(d.ids).map(([k, v]) => (
                          <div key={k}>
                            {k}: {v}
                          </div>
                        ))}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
