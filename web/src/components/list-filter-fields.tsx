import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { t } from '@/i18n/i18n';
import { useListParam } from './list-filters';

/** A select of states (`status` in the URL); the first option, value '', shows every state. */
export function StatusFilter({ label, options, param = 'status' }: { label: string; options: { value: string; label: string }[]; param?: string }) {
  const [value, setValue] = useListParam(param);
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-muted-foreground">{label}</span>
      <NativeSelect aria-label={label} value={value ?? ''} onChange={(e) => setValue(e.target.value || undefined)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </label>
  );
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The fields of a DateRangeFilter, remounted (keyed by the range) when the URL changes from outside. */
function DateRangeFields({ label, from, to, onApply }: { label: string; from: string; to: string; onApply: (range: { from?: string; to?: string }) => void }) {
  const id = useId();
  const [draft, setDraft] = useState({ from, to });
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const wrong =
      (draft.from && !DAY.test(draft.from)) || (draft.to && !DAY.test(draft.to))
        ? t('filters.dayFormat')
        : draft.from && draft.to && draft.from > draft.to
          ? t('filters.fromAfterTo')
          : null;
    setProblem(wrong);
    if (!wrong) onApply({ from: draft.from || undefined, to: draft.to || undefined });
  };
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {};
  return (
    <form aria-label={label} onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-from`}>{t('filters.from')}</Label>
        <Input id={`${id}-from`} type="date" className="w-40" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} {...invalid} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-to`}>{t('filters.to')}</Label>
        <Input id={`${id}-to`} type="date" className="w-40" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} {...invalid} />
      </div>
      <Button type="submit" variant="outline">
        {t('filters.show')}
      </Button>
      {from || to ? (
        <Button type="button" variant="ghost" onClick={() => onApply({})}>
          {t('filters.clearDates')}

        </Button>
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="basis-full text-sm text-destructive">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/**
 * Two day fields (`from`, `to` in the URL: UTC days, both included, either may be left
 * empty), applied together with 'Show'; 'Clear dates' drops both.
 */
export function DateRangeFilter({ label }: { label: string }) {
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const apply = (range: { from?: string; to?: string }) =>
    setParams((prev) => {
      const copy = new URLSearchParams(prev);
      for (const name of ['from', 'to'] as const) {
        const value = range[name];
        if (value) copy.set(name, value);
        else copy.delete(name);
      }
      return copy;
    });
  return <DateRangeFields key={`${from}/${to}`} label={label} from={from} to={to} onApply={apply} />;
}
