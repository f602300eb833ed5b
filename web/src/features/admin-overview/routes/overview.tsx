import { useId, type MouseEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Link } from '@/components/link';
import { Download } from 'lucide-react';
import { toast } from '@/lib/toast';
import { EXPORT_FILES, utcDay, type AdminOverviewJson, type ExportFile } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { formatAssetAmount } from '@/lib/asset-amount';
import { formatUsd } from '@/lib/format';
import { exportUrl, readyToExport, useOverview, type DayRange } from '../api/get-overview';
import { DayTable, OrdersByState, TopPackages } from '../components/overview-tables';
import { lastDays, RangePicker, rangeProblem } from '../components/range-picker';
import { RevenueChart } from '../components/revenue-chart';

/**
 * A CSV link's click: the second factor is made sure of first (the step-up dialog, when
 * needed), then the browser downloads the file as from the link itself.
 */
async function download(event: MouseEvent<HTMLAnchorElement>, href: string): Promise<void> {
  event.preventDefault();
  try {
    await readyToExport();
  } catch (error) {
    toast.error(getErrorMessage(error));
    return;
  }
  const link = document.createElement('a');
  link.href = href;
  link.download = '';
  link.click();
}

const EXPORT_LABELS: Record<ExportFile, string> = {
  'paid-orders': 'Paid orders (revenue)',
  orders: 'Orders placed',
  payments: 'Payments',
  ledger: 'Ledger',
};

/** The range in the URL (?from=&to=), or the last 30 days when there is none or it is not one the api would read. */
function useRange(today: string): [DayRange, (range: DayRange) => void] {
  const [params, setParams] = useSearchParams();
  const asked = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const range = rangeProblem(asked) ? lastDays(30, today) : asked;
  return [range, (next) => setParams({ from: next.from, to: next.to })];
}

/** One figure on a card, a group named by its title (so a screen reader says what the number is). */
function Stat({ title, value, hint, to }: { title: string; value: string; hint?: ReactNode; to?: string }) {
  const titleId = useId();
  return (
    <Card className="gap-2 py-4" role="group" aria-labelledby={titleId}>
      <CardHeader className="px-4">
        <CardDescription id={titleId}>{title}</CardDescription>
        <CardTitle className="text-xl tabular-nums break-words">{to ? <Link className="underline-offset-4 hover:underline" to={to}>{value}</Link> : value}</CardTitle>
      </CardHeader>
      {hint ? <CardContent className="px-4 text-xs text-muted-foreground">{hint}</CardContent> : null}
    </Card>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function Summary({ data, id }: { data: AdminOverviewJson; id: string }) {
  const best = data.days.reduce((top, d) => (Number(d.revenue) > Number(top.revenue) ? d : top), data.days[0]!);
  return (
    <p id={id} className="text-sm text-muted-foreground">
      {formatUsd(data.totals.revenue)} from {plural(data.totals.paidOrders, 'paid order')} over {plural(data.days.length, 'day')} (UTC)
      {data.totals.paidOrders > 0 ? `; the best day was ${best.day} with ${formatUsd(best.revenue)}.` : '.'} Every day is in the table below.
    </p>
  );
}

/**
 * /admin: the admin's landing page. What the shop took in over a range of UTC days (a
 * chart of revenue and paid orders per day, with the same figures as a table), the work
 * waiting for an admin, orders by state, top packages, new users, referral rewards, the
 * gas the shop paid to send buyers' signed payments (a cost of sale), and
 * the range's orders, payments and ledger as CSV files.
 */
export function OverviewPage() {
  const today = utcDay(new Date());
  const [range, setRange] = useRange(today);
  const { data, error, isPending, isPlaceholderData } = useOverview(range);

  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Overview" />
      <RangePicker range={range} today={today} onChange={setRange} />
      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <ErrorAlert error={error} />
      ) : (
        <div className="flex flex-col gap-6" aria-busy={isPlaceholderData}>
          {/* Seven figures: four a row on a wide screen (seven in one row left a dollar amount no room). */}
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Stat title="Revenue" value={formatUsd(data.totals.revenue)} hint={<><span className="whitespace-nowrap">{data.from}</span> to <span className="whitespace-nowrap">{data.to}</span></>} />
            <Stat title="Paid orders" value={String(data.totals.paidOrders)} />
            <Stat title="New users" value={String(data.totals.newUsers)} />
            <Stat title="Referral rewards" value={formatUsd(data.totals.referralRewards)} hint="Credited less reversed" />
            <Stat
              title="Gas paid for signed payments"
              value={formatUsd(data.totals.relayGasUsd)}
              hint={
                <>
                  <span className="whitespace-nowrap">{plural(data.totals.relayedPayments, 'payment')}</span> ·{' '}
                  <span className="whitespace-nowrap">{formatAssetAmount(data.totals.relayGasWei, 'ETH')}</span>
                </>
              }
            />
            <Stat title="Payments to resolve" value={String(data.needsAction.payments)} hint="Unresolved or late transfers" to="/admin/payments" />
            <Stat title="Cashouts to pay" value={String(data.needsAction.cashouts)} hint={formatUsd(data.needsAction.cashoutsUsd)} to="/admin/cashouts" />
          </div>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Revenue and paid orders per day</h2>
              </CardTitle>
              <Summary data={data} id="overview-chart-summary" />
            </CardHeader>
            <CardContent className="px-2 sm:px-5">
              <RevenueChart days={data.days} summaryId="overview-chart-summary" />
            </CardContent>
          </Card>

          <div className="grid gap-6 lg:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Top packages</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <TopPackages packages={data.topPackages} />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>Orders placed, by state</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <OrdersByState states={data.ordersByStatus} />
              </CardContent>
            </Card>
          </div>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Export as CSV</h2>
              </CardTitle>
              <CardDescription>
                {data.from} to {data.to} (UTC). Each download asks for your second factor if you have not given it in the last 10 minutes, and is recorded in
                the audit log.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-3 sm:grid-cols-2">
                {(Object.keys(EXPORT_FILES) as ExportFile[]).map((file) => (
                  <li key={file} className="flex flex-col gap-1">
                    <Button asChild variant="outline" className="justify-start">
                      <a href={exportUrl(file, range)} download onClick={(event) => void download(event, exportUrl(file, range))}>
                        <Download aria-hidden="true" />
                        {EXPORT_LABELS[file]}
                      </a>
                    </Button>
                    <span className="text-xs text-muted-foreground">{EXPORT_FILES[file]}</span>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Day by day</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <DayTable days={data.days} />
            </CardContent>
          </Card>
        </div>
      )}
    </section>
  );
}
