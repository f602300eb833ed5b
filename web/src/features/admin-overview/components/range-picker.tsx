import { useState, type FormEvent } from 'react';
import { addDays, OVERVIEW_MAX_DAYS } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { t } from '@/i18n/i18n';
import type { DayRange } from '../api/get-overview';

export const PRESETS = [7, 30, 90] as const;

/** The last `days` UTC days, today included. */
export const lastDays = (days: number, today: string): DayRange => ({ from: addDays(today, -(days - 1)), to: today });

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with a range typed in, in the api's words, or null when it can be shown. */
export function rangeProblem({ from, to }: DayRange): string | null {
  if (!DAY.test(from) || !DAY.test(to)) return t('overview.range.chooseBoth');
  if (from > to) return t('overview.range.fromAfterTo');
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (days > OVERVIEW_MAX_DAYS) return t('overview.range.tooLong', { max: OVERVIEW_MAX_DAYS });
  return null;
}

/** The two day fields, applied together; remounted (keyed by the range) when the range changes from outside. */
function RangeFields({ range, today, onChange }: { range: DayRange; today: string; onChange: (range: DayRange) => void }) {
  const [draft, setDraft] = useState(range);
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = rangeProblem(draft);
    setProblem(wrong);
    if (!wrong) onChange(draft);
  };
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': 'overview-range-problem' } : {};
  return (
    <form aria-label={t('overview.range.label')} onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" noValidate>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="overview-from">{t('overview.range.from')}</Label>
        <Input id="overview-from" type="date" className="w-40" value={draft.from} max={today} onChange={(e) => setDraft({ ...draft, from: e.target.value })} {...invalid} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="overview-to">{t('overview.range.to')}</Label>
        <Input id="overview-to" type="date" className="w-40" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} {...invalid} />
      </div>
      <Button type="submit" variant="outline">
        {t('overview.range.show')}
      </Button>
      {problem ? (
        <p id="overview-range-problem" role="alert" className="basis-full text-sm text-destructive">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/**
 * The range of the overview: two day fields (UTC days) and presets of the last 7, 30
 * and 90 days. The range lives in the page's URL.
 */
export function RangePicker({ range, today, onChange }: { range: DayRange; today: string; onChange: (range: DayRange) => void }) {
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
      <RangeFields key={`${range.from}/${range.to}`} range={range} today={today} onChange={onChange} />
      <div role="group" aria-label={t('overview.range.presets')} className="flex flex-wrap gap-2">
        {PRESETS.map((days) => {
          const preset = lastDays(days, today);
          const active = preset.from === range.from && preset.to === range.to;
          return (
            <Button key={days} type="button" size="sm" variant={active ? 'default' : 'outline'} aria-pressed={active} onClick={() => onChange(preset)}>
              {t('overview.range.lastDays', { days })}
            </Button>
          );
        })}
      </div>
    </div>
  );
}
