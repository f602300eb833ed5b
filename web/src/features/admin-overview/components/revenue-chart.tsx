import { Bar, CartesianGrid, ComposedChart, Line, XAxis, YAxis } from 'recharts';
import type { OverviewDayJson } from '@shop/core/contract';
import { ChartContainer, ChartLegend, ChartLegendContent, ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart';
import { t } from '@/i18n/i18n';
import { formatDay, formatMonthDay, formatNumber, formatUsd } from '@/lib/format';

/** The two series' names (in the active language) and colours. */
const chartConfig = () =>
  ({
    revenue: { label: t('overview.chart.revenue'), color: 'oklch(0.546 0.245 262.881)' },
    paidOrders: { label: t('overview.chart.paidOrders'), color: 'oklch(0.646 0.222 41.116)' },
  }) satisfies ChartConfig;

/** An axis's dollars, short: '$28', '$1.2k' in English; '1,2 тыс. $' in Russian. */
const axisUsd = (value: number) =>
  value >= 1000
    ? t('overview.chart.axisUsdThousands', { amount: formatNumber(value / 1000, value >= 10_000 ? 0 : 1) })
    : t('overview.chart.axisUsd', { amount: formatNumber(value, 0) });

/**
 * Revenue (bars, left axis) and paid orders (line, right axis) per UTC day. The figures
 * plotted are numbers; the tooltip shows the exact amounts the api sent. A picture only:
 * the same figures are in the table of days below it (its text alternative), and the
 * chart can be walked with the arrow keys (recharts' accessibility layer).
 */
export function RevenueChart({ days, summaryId }: { days: OverviewDayJson[]; summaryId: string }) {
  const data = days.map((d) => ({ day: d.day, label: formatMonthDay(d.day), revenue: Number(d.revenue), revenueText: d.revenue, paidOrders: d.paidOrders }));
  return (
    <ChartContainer config={chartConfig()} className="aspect-auto h-64 w-full sm:h-72" aria-describedby={summaryId}>
      <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }} title={t('overview.chart.title')} accessibilityLayer>
        <CartesianGrid vertical={false} />
        <XAxis dataKey="label" tickLine={false} axisLine={false} tickMargin={8} minTickGap={16} />
        <YAxis yAxisId="usd" tickLine={false} axisLine={false} width="auto" tickFormatter={axisUsd} allowDecimals={false} />
        <YAxis yAxisId="orders" orientation="right" tickLine={false} axisLine={false} width={28} allowDecimals={false} />
        <ChartTooltip
          cursor={{ fillOpacity: 0.5 }}
          content={
            <ChartTooltipContent
              labelKey="day"
              labelFormatter={(_label, payload) => formatDay(String(payload[0]?.payload?.day ?? ''))}
              formatter={(value, name, item) => (name === 'revenue' ? formatUsd(String(item.payload?.revenueText ?? value)) : String(value))}
            />
          }
        />
        <ChartLegend content={<ChartLegendContent />} />
        <Bar yAxisId="usd" dataKey="revenue" fill="var(--color-revenue)" radius={[3, 3, 0, 0]} maxBarSize={32} isAnimationActive={false} />
        <Line yAxisId="orders" dataKey="paidOrders" type="linear" stroke="var(--color-paidOrders)" strokeWidth={2} dot={days.length <= 14} isAnimationActive={false} />
      </ComposedChart>
    </ChartContainer>
  );
}
