import { useId, useMemo, type ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { RefreshCw, TriangleAlert } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { DepositFactoryJson, DepositsSummaryJson, DepositSweepJson, SweeperStatusJson } from '@shop/core/contract';
import { DataTable } from '@/components/data-table';
import { dayColumn } from '@/components/data-table-columns';
import { ErrorAlert } from '@/components/error-alert';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { t, type MessageKey } from '@/i18n/i18n';
import { formatTime, formatUsd } from '@/lib/format';
import { useDepositsSummary, useDepositSweeps } from '../api/get-deposits';
import { useSweepNow } from '../api/sweep-now';
import { ethValue } from './eth-value';
import { marks, withParts } from '@/i18n/rich-text';
import { ShortHex } from './short-hex';

const SWEEP_BADGES: Record<DepositSweepJson['status'], { text: MessageKey; variant: NonNullable<BadgeProps['variant']> }> = {
  SENT: { text: 'adminPayments.deposits.sweepSent', variant: 'secondary' },
  CONFIRMED: { text: 'adminPayments.deposits.sweepConfirmed', variant: 'success' },
  FAILED: { text: 'adminPayments.deposits.sweepFailed', variant: 'destructive' },
  DROPPED: { text: 'adminPayments.deposits.sweepDropped', variant: 'outline' },
};

const sweepColumns = (): ColumnDef<DepositSweepJson>[] => [
  { id: 'txHash', header: t('adminPayments.column.txHash'), cell: ({ row }) => <ShortHex value={row.original.txHash} /> },
  {
    id: 'status',
    header: t('adminPayments.column.status'),
    cell: ({ row }) => <Badge variant={SWEEP_BADGES[row.original.status].variant}>{t(SWEEP_BADGES[row.original.status].text)}</Badge>,
  },
  { id: 'items', header: t('adminPayments.column.addresses'), accessorFn: (sweep) => String(sweep.items), meta: { className: 'tabular-nums' } },
  {
    id: 'swept',
    header: t('adminPayments.column.swept'),
    // Until it is confirmed, what the addresses held when it was sent; a token sweep in its tokens.
    cell: ({ row }) =>
      row.original.tokens !== null ? (
        row.original.status === 'CONFIRMED' ? (
          row.original.tokens
        ) : (
          <span className="text-muted-foreground">{t('adminPayments.deposits.expected', { amount: row.original.tokens })}</span>
        )
      ) : row.original.sweptWei !== null ? (
        ethValue(row.original.sweptWei)
      ) : (
        <span className="text-muted-foreground">{t('adminPayments.deposits.expected', { amount: ethValue(row.original.expectedWei) })}</span>
      ),
    meta: { className: 'tabular-nums' },
  },
  { id: 'gas', header: t('adminPayments.column.gas'), accessorFn: (sweep) => ethValue(sweep.feeWei), meta: { className: 'tabular-nums' } },
  { id: 'reason', header: t('adminPayments.column.reason'), accessorFn: (sweep) => sweep.reason ?? '—', meta: { className: 'max-w-64 text-xs whitespace-normal' } },
  dayColumn(),
];

function Figure({ label, value, hint }: { label: string; value: string; hint?: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 rounded-lg border px-4 py-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums break-words">{value}</dd>
      {hint ? <dd className="text-xs text-muted-foreground">{hint}</dd> : null}
    </div>
  );
}

/**
 * The sweeper's line: its reason says it in full when it has one ("Sent sweep 0x... of 1
 * address", "Sweeping is off: ..."), so it is not said twice; an idle sweeper's reason (dust
 * left) follows "nothing to sweep".
 */
function stateLine(status: SweeperStatusJson): string {
  if (status.state === 'idle') return status.reason ? t('adminPayments.deposits.idleReason', { reason: status.reason }) : t('adminPayments.deposits.idle');
  return status.reason ?? t(status.state === 'sent' ? 'adminPayments.deposits.sentSweep' : 'adminPayments.deposits.off');
}

/** The sweeper's state as its last run left it; why it waits, prominently. */
function SweeperState({ status }: { status: SweeperStatusJson | null }) {
  if (!status) return <p className="text-sm text-muted-foreground">{t('adminPayments.deposits.notRun')}</p>;
  const when = t('adminPayments.deposits.asOf', { time: formatTime(status.at) });
  if (status.state === 'waiting') {
    return (
      <Alert variant="destructive">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>{t('adminPayments.deposits.waiting')}</AlertTitle>
        <AlertDescription>
          {/* A reason may name a transaction hash: 66 characters with nowhere to wrap on a phone. */}
          <p className="[overflow-wrap:anywhere]">{status.reason ?? t('adminPayments.deposits.noReason')}</p>
          <p className="text-xs">{when}</p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <p className="text-sm [overflow-wrap:anywhere]">
      {withParts(t('adminPayments.deposits.sweeper', marks('state', 'when')), {
        state: <span className="font-medium">{stateLine(status)}</span>,
        when: <span className="text-xs text-muted-foreground">{when}</span>,
      })}
    </p>
  );
}

const FACTORY_TEXT: Record<Exclude<DepositFactoryJson['state'], 'refused'>, MessageKey> = {
  off: 'adminPayments.deposits.factoryOff',
  checking: 'adminPayments.deposits.factoryChecking',
  trusted: 'adminPayments.deposits.factoryTrusted',
};

/** Whether new orders get deposit addresses: the factory's check; a refused factory, and why, prominently. */
function FactoryState({ factory }: { factory: DepositFactoryJson }) {
  if (factory.state === 'refused') {
    return (
      <Alert variant="destructive">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>{t('adminPayments.deposits.factoryRefused')}</AlertTitle>
        <AlertDescription>
          {/* The reason names addresses: 42 characters with nowhere to wrap on a phone. */}
          <p className="[overflow-wrap:anywhere]">{t('adminPayments.deposits.factoryRefusedWhy', { reason: factory.reason ?? t('adminPayments.deposits.factoryNoReason') })}</p>
          {factory.checkedAt ? <p className="text-xs">{t('adminPayments.deposits.checked', { time: formatTime(factory.checkedAt) })}</p> : null}
        </AlertDescription>
      </Alert>
    );
  }
  const state = <span className="font-medium">{t(FACTORY_TEXT[factory.state])}</span>;
  return (
    <p className="text-sm [overflow-wrap:anywhere]">
      {factory.state === 'checking' && factory.reason
        ? withParts(t('adminPayments.deposits.factoryReason', { reason: factory.reason, ...marks('state') }), { state })
        : withParts(t('adminPayments.deposits.factory', marks('state')), { state })}
    </p>
  );
}

function Figures({ data }: { data: DepositsSummaryJson }) {
  const { unswept, last24h, last30d } = data;
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
      <Figure
        label={t('adminPayments.deposits.unswept')}
        value={`${unswept.eth} ETH`}
        hint={unswept.usd === null ? t('adminPayments.deposits.noPrice') : formatUsd(unswept.usd)}
      />
      <Figure label={t('adminPayments.deposits.addresses')} value={String(unswept.addresses)} hint={t('adminPayments.deposits.onTheWay', { count: data.sweepsWaiting })} />
      <Figure label={t('adminPayments.deposits.swept24h')} value={`${last24h.swept.eth} ETH`} hint={t('adminPayments.deposits.last30d', { amount: last30d.swept.eth })} />
      <Figure label={t('adminPayments.deposits.gas24h')} value={`${last24h.gas.eth} ETH`} hint={t('adminPayments.deposits.last30d', { amount: last30d.gas.eth })} />
    </dl>
  );
}

/**
 * The deposit addresses (paying from an exchange): ETH waiting at them, what the sweeper
 * moved on to the receiving address and what its gas cost, why it waits, and its sweeps.
 */
export function DepositAddresses() {
  const headingId = useId();
  const summary = useDepositsSummary();
  const sweeps = useDepositSweeps();
  const sweepNow = useSweepNow();
  const columns = useMemo(() => sweepColumns(), []);
  const onSweep = () =>
    sweepNow.mutate(undefined, {
      onSuccess: (answer) => toast.info(answer.queued === false ? t('adminPayments.deposits.sweepQueuedAlready') : t('adminPayments.deposits.sweepQueued')),
      onError: (err) => toast.error(getErrorMessage(err)),
    });

  return (
    <Card aria-labelledby={headingId} role="region">
      <CardHeader>
        <CardTitle>
          <h2 id={headingId} className="text-xl font-semibold tracking-tight">
            {t('adminPayments.deposits.heading')}
          </h2>
        </CardTitle>
        <CardDescription>{t('adminPayments.deposits.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {summary.isPending ? (
          <Spinner label={t('adminPayments.deposits.loading')} className="py-6" />
        ) : summary.error ? (
          <ErrorAlert error={summary.error} />
        ) : (
          <>
            <Figures data={summary.data} />
            <FactoryState factory={summary.data.factory} />
            <SweeperState status={summary.data.sweeper} />
            <Button variant="outline" className="w-fit" pending={sweepNow.isPending} icon={<RefreshCw aria-hidden="true" />} onClick={onSweep}>
              {t('adminPayments.deposits.sweepNow')}
            </Button>
          </>
        )}
        <h3 className="font-semibold">{t('adminPayments.deposits.recent')}</h3>
        <DataTable columns={columns} list={sweeps} label={t('adminPayments.deposits.recent')} emptyText={t('adminPayments.deposits.empty')} moreLabel={t('adminPayments.deposits.more')} />
      </CardContent>
    </Card>
  );
}
