import { useId, type ReactNode } from 'react';
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
import { formatTime, formatUsd } from '@/lib/format';
import { useDepositsSummary, useDepositSweeps } from '../api/get-deposits';
import { useSweepNow } from '../api/sweep-now';
import { ethValue } from './eth-value';
import { ShortHex } from './short-hex';

const SWEEP_BADGES: Record<DepositSweepJson['status'], { text: string; variant: NonNullable<BadgeProps['variant']> }> = {
  SENT: { text: 'Sent', variant: 'secondary' },
  CONFIRMED: { text: 'Confirmed', variant: 'success' },
  FAILED: { text: 'Failed', variant: 'destructive' },
  DROPPED: { text: 'Dropped', variant: 'outline' },
};

const SWEEP_COLUMNS: ColumnDef<DepositSweepJson>[] = [
  { id: 'txHash', header: 'TX HASH', cell: ({ row }) => <ShortHex value={row.original.txHash} /> },
  {
    id: 'status',
    header: 'STATUS',
    cell: ({ row }) => <Badge variant={SWEEP_BADGES[row.original.status].variant}>{SWEEP_BADGES[row.original.status].text}</Badge>,
  },
  { id: 'items', header: 'ADDRESSES', accessorFn: (sweep) => String(sweep.items), meta: { className: 'tabular-nums' } },
  {
    id: 'swept',
    header: 'SWEPT',
    // Until it is confirmed, what the addresses held when it was sent; a token sweep in its tokens.
    cell: ({ row }) =>
      row.original.tokens !== null ? (
        row.original.status === 'CONFIRMED' ? (
          row.original.tokens
        ) : (
          <span className="text-muted-foreground">{row.original.tokens} expected</span>
        )
      ) : row.original.sweptWei !== null ? (
        ethValue(row.original.sweptWei)
      ) : (
        <span className="text-muted-foreground">{ethValue(row.original.expectedWei)} expected</span>
      ),
    meta: { className: 'tabular-nums' },
  },
  { id: 'gas', header: 'GAS', accessorFn: (sweep) => ethValue(sweep.feeWei), meta: { className: 'tabular-nums' } },
  { id: 'reason', header: 'REASON', accessorFn: (sweep) => sweep.reason ?? '—', meta: { className: 'max-w-64 text-xs whitespace-normal' } },
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
  if (status.state === 'idle') return `Idle: nothing to sweep${status.reason ? `; ${status.reason}` : ''}`;
  return status.reason ?? (status.state === 'sent' ? 'Sent a sweep' : 'Off');
}

/** The sweeper's state as its last run left it; why it waits, prominently. */
function SweeperState({ status }: { status: SweeperStatusJson | null }) {
  if (!status) return <p className="text-sm text-muted-foreground">Sweeper: it has not run yet.</p>;
  const when = `as of ${formatTime(status.at)}`;
  if (status.state === 'waiting') {
    return (
      <Alert variant="destructive">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>Sweeper waiting</AlertTitle>
        <AlertDescription>
          {/* A reason may name a transaction hash: 66 characters with nowhere to wrap on a phone. */}
          <p className="[overflow-wrap:anywhere]">{status.reason ?? 'No reason given'}</p>
          <p className="text-xs">{when}</p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <p className="text-sm [overflow-wrap:anywhere]">
      Sweeper: <span className="font-medium">{stateLine(status)}</span> <span className="text-xs text-muted-foreground">{when}</span>
    </p>
  );
}

const FACTORY_TEXT: Record<Exclude<DepositFactoryJson['state'], 'refused'>, string> = {
  off: 'none configured: orders have no deposit address',
  checking: 'not checked yet: new orders get no deposit address until it is',
  trusted: "its code is the shop's",
};

/** Whether new orders get deposit addresses: the factory's check; a refused factory, and why, prominently. */
function FactoryState({ factory }: { factory: DepositFactoryJson }) {
  if (factory.state === 'refused') {
    return (
      <Alert variant="destructive">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>Deposit factory refused</AlertTitle>
        <AlertDescription>
          {/* The reason names addresses: 42 characters with nowhere to wrap on a phone. */}
          <p className="[overflow-wrap:anywhere]">New orders get no deposit address and nothing is swept through it: {factory.reason ?? 'no reason given'}.</p>
          {factory.checkedAt ? <p className="text-xs">checked {formatTime(factory.checkedAt)}</p> : null}
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <p className="text-sm [overflow-wrap:anywhere]">
      Deposit factory: <span className="font-medium">{FACTORY_TEXT[factory.state]}</span>
      {factory.state === 'checking' && factory.reason ? ` (${factory.reason})` : ''}
    </p>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function Figures({ data }: { data: DepositsSummaryJson }) {
  const { unswept, last24h, last30d } = data;
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
      <Figure label="Waiting to be swept" value={`${unswept.eth} ETH`} hint={unswept.usd === null ? 'USD: price unavailable' : formatUsd(unswept.usd)} />
      <Figure label="Addresses waiting" value={String(unswept.addresses)} hint={`${plural(data.sweepsWaiting, 'sweep')} on the way`} />
      <Figure label="Swept, last 24 hours" value={`${last24h.swept.eth} ETH`} hint={`${last30d.swept.eth} ETH in the last 30 days`} />
      <Figure label="Gas spent, last 24 hours" value={`${last24h.gas.eth} ETH`} hint={`${last30d.gas.eth} ETH in the last 30 days`} />
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
  const onSweep = () =>
    sweepNow.mutate(undefined, {
      onSuccess: (answer) => toast.info(answer.message),
      onError: (err) => toast.error(getErrorMessage(err)),
    });

  return (
    <Card aria-labelledby={headingId} role="region">
      <CardHeader>
        <CardTitle>
          <h2 id={headingId} className="text-xl font-semibold tracking-tight">
            Deposit addresses
          </h2>
        </CardTitle>
        <CardDescription>
          A buyer paying from an exchange, or in a token, sends to their order&apos;s own address; the sweeper moves what arrives
          there (ETH, and the accepted tokens) on to the receiving address from its gas wallet. The figures below are ETH; a token
          sweep reads in its tokens.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {summary.isPending ? (
          <Spinner label="Loading the deposit figures" className="py-6" />
        ) : summary.error ? (
          <ErrorAlert error={summary.error} />
        ) : (
          <>
            <Figures data={summary.data} />
            <FactoryState factory={summary.data.factory} />
            <SweeperState status={summary.data.sweeper} />
            <Button variant="outline" className="w-fit" pending={sweepNow.isPending} icon={<RefreshCw aria-hidden="true" />} onClick={onSweep}>
              Sweep now
            </Button>
          </>
        )}
        <h3 className="font-semibold">Recent sweeps</h3>
        <DataTable columns={SWEEP_COLUMNS} list={sweeps} label="Recent sweeps" emptyText="No sweeps yet." moreLabel="More sweeps" />
      </CardContent>
    </Card>
  );
}
