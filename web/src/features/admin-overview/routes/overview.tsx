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
import { t, type MessageKey } from '@/i18n/i18n';
import { formatDay, formatUsd } from '@/lib/format';
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

/** Each CSV file's link text and what it holds. */
const EXPORT_TEXTS: Record<ExportFile, { label: MessageKey; description: MessageKey }> = {
  'paid-orders': { label: 'overview.export.paidOrders', description: 'overview.export.paidOrdersDescription' },
  orders: { label: 'overview.export.orders', description: 'overview.export.ordersDescription' },
  payments: { label: 'overview.export.payments', description: 'overview.export.paymentsDescription' },
  ledger: { label: 'overview.export.ledger', description: 'overview.export.ledgerDescription' },
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

function Summary({ data, id }: { data: AdminOverviewJson; id: string }) {
  const best = data.days.reduce((top, d) => (Number(d.revenue) > Number(top.revenue) ? d : top), data.days[0]!);
  const values = { revenue: formatUsd(data.totals.revenue), paidOrders: data.totals.paidOrders, days: data.days.length };
  return (
    <p id={id} className="text-sm text-muted-foreground">
      {data.totals.paidOrders > 0
        ? t('overview.summary.withBest', { ...values, bestDay: formatDay(best.day), bestRevenue: formatUsd(best.revenue) })
        : t('overview.summary.noPaid', values)}
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
      <PageHeader title={t('overview.title')} />
      <RangePicker range={range} today={today} onChange={setRange} />
      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <ErrorAlert error={error} />
      ) : (
        <div className="flex flex-col gap-6" aria-busy={isPlaceholderData}>
          {/* Seven figures: four a row on a wide screen (seven in one row left a dollar amount no room). */}
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Stat title={t('overview.stat.revenue')} value={formatUsd(data.totals.revenue)} hint={t('overview.stat.revenueRange', { from: formatDay(data.from), to: formatDay(data.to) })} />
            <Stat title={t('overview.stat.paidOrders')} value={String(data.totals.paidOrders)} />
            <Stat title={t('overview.stat.newUsers')} value={String(data.totals.newUsers)} />
            <Stat title={t('overview.stat.referralRewards')} value={formatUsd(data.totals.referralRewards)} hint={t('overview.stat.referralRewardsHint')} />
            <Stat
              title={t('overview.stat.relayGas')}
              value={formatUsd(data.totals.relayGasUsd)}
              hint={
                <>
                  <span className="whitespace-nowrap">{t('overview.stat.relayedPayments', { count: data.totals.relayedPayments })}</span> ·{' '}
                  <span className="whitespace-nowrap">{formatAssetAmount(data.totals.relayGasWei, 'ETH')}</span>
                </>
              }
            />
            <Stat title={t('overview.stat.paymentsToResolve')} value={String(data.needsAction.payments)} hint={t('overview.stat.paymentsToResolveHint')} to="/admin/payments" />
            <Stat title={t('overview.stat.cashoutsToPay')} value={String(data.needsAction.cashouts)} hint={formatUsd(data.needsAction.cashoutsUsd)} to="/admin/cashouts" />
          </div>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{t('overview.chart.heading')}</h2>
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
                  <h2>{t('overview.topPackages.heading')}</h2>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <TopPackages packages={data.topPackages} />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>
                  <h2>{t('overview.byState.heading')}</h2>
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
                <h2>{t('overview.export.heading')}</h2>
              </CardTitle>
              <CardDescription>{t('overview.export.description', { from: formatDay(data.from), to: formatDay(data.to) })}</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-3 sm:grid-cols-2">
                {(Object.keys(EXPORT_FILES) as ExportFile[]).map((file) => (
                  <li key={file} className="flex flex-col gap-1">
                    <Button asChild variant="outline" className="justify-start">
                      <a href={exportUrl(file, range)} download onClick={(event) => void download(event, exportUrl(file, range))}>
                        <Download aria-hidden="true" />
                        {t(EXPORT_TEXTS[file].label)}
                      </a>
                    </Button>
                    <span className="text-xs text-muted-foreground">{t(EXPORT_TEXTS[file].description)}</span>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>{t('overview.days.heading')}</h2>
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
