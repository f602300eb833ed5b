import { createContext, useContext, useId, type ComponentProps, type ComponentType, type CSSProperties, type ReactNode } from 'react';
import * as RechartsPrimitive from 'recharts';
import { cn } from '@/lib/utils';

/**
 * shadcn/ui's chart component (recharts underneath), with one change for the shop's
 * Content-Security-Policy: shadcn writes each series' colour as a `--color-<key>`
 * variable in a `<style>` element it renders into the page; here the variables are set
 * on the chart's own element through React's style prop (CSSOM, which the policy
 * governs neither way), so the chart needs no inline `<style>` element, whatever
 * style-src allows. Recharts itself renders SVG with presentation attributes only.
 *
 * Import it only from a screen that draws a chart: recharts then stays in that screen's
 * chunk.
 */

export type ChartConfig = Record<string, { label?: ReactNode; icon?: ComponentType; color?: string }>;

type ChartContextProps = { config: ChartConfig };

const ChartContext = createContext<ChartContextProps | null>(null);

/** The config key of a series with no name of its own (recharts' default dataKey); not a text shown. */
const VALUE_KEY = 'value';


function useChart() {
  const context = useContext(ChartContext);
  if (!context) throw new Error('useChart must be used within a <ChartContainer />');
  return context;
}

/** The colour variables of a config (`--color-revenue: ...`), for the container's style. */
export function chartColorVars(config: ChartConfig): CSSProperties {
  const vars: Record<string, string> = {};
  for (const [key, item] of Object.entries(config)) if (item.color) vars[`--color-${key}`] = item.color;
  return vars as CSSProperties;
}

export function ChartContainer({
  id,
  className,
  children,
  config,
  style,
  ...props
}: ComponentProps<'div'> & {
  config: ChartConfig;
  children: ComponentProps<typeof RechartsPrimitive.ResponsiveContainer>['children'];
}) {
  const uniqueId = useId();
  const chartId = `chart-${id ?? uniqueId.replace(/:/g, '')}`;
  return (
    <ChartContext.Provider value={{ config }}>
      <div
        data-slot="chart"
        data-chart={chartId}
        style={{ ...chartColorVars(config), ...style }}
        className={cn(
          "flex aspect-video justify-center text-xs [&_.recharts-cartesian-axis-tick_text]:fill-muted-foreground [&_.recharts-cartesian-grid_line[stroke='#ccc']]:stroke-border/50 [&_.recharts-curve.recharts-tooltip-cursor]:stroke-border [&_.recharts-layer]:outline-hidden [&_.recharts-rectangle.recharts-tooltip-cursor]:fill-muted [&_.recharts-reference-line_[stroke='#ccc']]:stroke-border [&_.recharts-sector]:outline-hidden [&_.recharts-surface]:outline-hidden [&_.recharts-surface:focus-visible]:outline-2 [&_.recharts-surface:focus-visible]:outline-ring",
          className,
        )}
        {...props}
      >
        <RechartsPrimitive.ResponsiveContainer>{children}</RechartsPrimitive.ResponsiveContainer>
      </div>
    </ChartContext.Provider>
  );
}

export const ChartTooltip = RechartsPrimitive.Tooltip;

type PayloadItem = {
  dataKey?: string | number | ((obj: unknown) => unknown);
  name?: string | number;
  value?: unknown;
  color?: string;
  fill?: string;
  payload?: Record<string, unknown>;
};

type TooltipContentProps = {
  active?: boolean;
  payload?: readonly PayloadItem[];
  label?: ReactNode;
  className?: string;
  hideLabel?: boolean;
  hideIndicator?: boolean;
  indicator?: 'line' | 'dot' | 'dashed';
  nameKey?: string;
  labelKey?: string;
  labelFormatter?: (label: ReactNode, payload: readonly PayloadItem[]) => ReactNode;
  /** The value as shown (money as the api sent it, say), for one series. */
  formatter?: (value: unknown, name: string, item: PayloadItem) => ReactNode;
};

function configOf(config: ChartConfig, item: PayloadItem, key: string) {
  const fromPayload = item.payload && typeof item.payload[key] === 'string' ? (item.payload[key] as string) : undefined;
  return config[fromPayload ?? key] ?? config[key];
}

export function ChartTooltipContent({
  active,
  payload,
  className,
  indicator = 'dot',
  hideLabel = false,
  hideIndicator = false,
  label,
  labelFormatter,
  formatter,
  nameKey,
  labelKey,
}: TooltipContentProps) {
  const { config } = useChart();
  if (!active || !payload?.length) return null;
  const first = payload[0]!;
  const labelItem = configOf(config, first, labelKey ?? String(first.dataKey ?? first.name ?? 'value'));
  const labelText = !labelKey && typeof label === 'string' ? (config[label]?.label ?? label) : labelItem?.label;
  const tooltipLabel = hideLabel ? null : labelFormatter ? labelFormatter(labelText ?? label, payload) : (labelText ?? label);
  return (
    <div className={cn('grid min-w-32 items-start gap-1.5 rounded-lg border border-border/50 bg-background px-2.5 py-1.5 text-xs shadow-xl', className)}>
      {tooltipLabel ? <div className="font-medium">{tooltipLabel}</div> : null}
      <div className="grid gap-1.5">
        {payload.map((item) => {
          const key = String(nameKey ?? item.name ?? item.dataKey ?? VALUE_KEY);
          const itemConfig = configOf(config, item, key);
          const color = item.color ?? item.fill;
          return (
            <div key={key} className="flex w-full flex-wrap items-center gap-2 [&>svg]:h-2.5 [&>svg]:w-2.5 [&>svg]:text-muted-foreground">
              {itemConfig?.icon ? (
                <itemConfig.icon />
              ) : hideIndicator ? null : (
                <div
                  aria-hidden="true"
                  className={cn('shrink-0 rounded-[2px] border-(--color-border) bg-(--color-bg)', {
                    'h-2.5 w-2.5': indicator === 'dot',
                    'w-1 self-stretch': indicator === 'line',
                    'w-0 self-stretch border-[1.5px] border-dashed bg-transparent': indicator === 'dashed',
                  })}
                  style={{ '--color-bg': color, '--color-border': color } as CSSProperties}
                />
              )}
              <div className="flex flex-1 items-center justify-between gap-4 leading-none">
                <span className="text-muted-foreground">{itemConfig?.label ?? item.name}</span>
                <span className="font-mono font-medium text-foreground tabular-nums">
                  {formatter ? formatter(item.value, key, item) : String(item.value ?? '')}
                </span>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

export const ChartLegend = RechartsPrimitive.Legend;

export function ChartLegendContent({
  className,
  hideIcon = false,
  payload,
  verticalAlign = 'bottom',
  nameKey,
}: {
  className?: string;
  hideIcon?: boolean;
  payload?: readonly { value?: unknown; dataKey?: unknown; color?: string }[];
  verticalAlign?: 'top' | 'middle' | 'bottom';
  nameKey?: string;
}) {
  const { config } = useChart();
  if (!payload?.length) return null;
  return (
    <div className={cn('flex flex-wrap items-center justify-center gap-4', verticalAlign === 'top' ? 'pb-3' : 'pt-3', className)}>
      {payload.map((item) => {
        const key = String(nameKey ?? item.dataKey ?? VALUE_KEY);
        const itemConfig = config[key];
        return (
          <div key={key} className="flex items-center gap-1.5 [&>svg]:h-3 [&>svg]:w-3 [&>svg]:text-muted-foreground">
            {itemConfig?.icon && !hideIcon ? (
              <itemConfig.icon />
            ) : (
              <div aria-hidden="true" className="h-2 w-2 shrink-0 rounded-[2px] bg-(--color-bg)" style={{ '--color-bg': item.color } as CSSProperties} />
            )}
            {itemConfig?.label ?? String(item.value ?? key)}
          </div>
        );
      })}
    </div>
  );
}
