/** Nearest-rank percentile of an unsorted sample (p in 0..100); NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
}

export const int = (value: number) => Math.round(value).toLocaleString('en-US');

export const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

/** Bytes as kB (1 kB = 1,000 bytes, as Vite prints them). */
export const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
