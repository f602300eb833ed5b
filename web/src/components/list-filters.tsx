import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Search } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useValueBeforeApp } from '@/lib/value-before-app';
import { t } from '@/i18n/i18n';

/**
 * A list's filters live in the page's URL (`?q=...&status=...`): a filtered list can be
 * bookmarked, shared and reloaded, and Back undoes a filter. The search box is here (the
 * home page's); the other filters, which only lists behind a sign-in use, are in
 * list-filter-fields.tsx.
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
  const ref = useValueBeforeApp(setDraft, draft);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setValue(draft.trim() || undefined);
  };
  return (
    <form role="search" aria-label={label} onSubmit={onSubmit} className="flex w-full max-w-md items-center gap-2">
      <Input ref={ref} type="search" aria-label={label} placeholder={placeholder} value={draft} maxLength={100} onChange={(e) => setDraft(e.target.value)} />
      <Button type="submit" variant="outline" aria-label={t('filters.search')}
>
        <Search aria-hidden="true" className="size-4" />
      </Button>
    </form>
  );
}
