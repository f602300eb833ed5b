import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Search } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';

/**
 * A list's filters live in the page's URL (`?q=...&status=...`): a filtered list can be
 * bookmarked, shared and reloaded, and Back undoes a filter.
 */
export function useListParam(name: string): [string | undefined, (value: string | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) || undefined;
  const set = (next: string | undefined) =>
    setParams(
      (prev) => {
        const copy = new URLSearchParams(prev);
        if (next) copy.set(name, next);
        else copy.delete(name);
        return copy;
      },
      { replace: false },
    );
  return [value, set];
}

/** A search box that filters on submit (Enter or the button); an empty search shows everything. */
export function SearchBox({ label, placeholder, param = 'q' }: { label: string; placeholder?: string; param?: string }) {
  const [value, setValue] = useListParam(param);
  const [draft, setDraft] = useState(value ?? '');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setValue(draft.trim() || undefined);
  };
  return (
    <form role="search" aria-label={label} onSubmit={onSubmit} className="flex w-full max-w-md items-center gap-2">
      <Input type="search" aria-label={label} placeholder={placeholder} value={draft} maxLength={100} onChange={(e) => setDraft(e.target.value)} />
      <Button type="submit" variant="outline" aria-label="Search">
        <Search aria-hidden="true" className="size-4" />
      </Button>
    </form>
  );
}

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
        ? 'Enter each day as YYYY-MM-DD'
        : draft.from && draft.to && draft.from > draft.to
          ? 'From must not be after To'
          : null;
    setProblem(wrong);
    if (!wrong) onApply({ from: draft.from || undefined, to: draft.to || undefined });
  };
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {};
  return (
    <form aria-label={label} onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-from`}>From</Label>
        <Input id={`${id}-from`} type="date" className="w-40" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} {...invalid} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-to`}>To</Label>
        <Input id={`${id}-to`} type="date" className="w-40" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} {...invalid} />
      </div>
      <Button type="submit" variant="outline">
        Show
      </Button>
      {from || to ? (
        <Button type="button" variant="ghost" onClick={() => onApply({})}>
          Clear dates
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
