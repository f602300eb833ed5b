import { Star } from 'lucide-react';
import { t } from '@/i18n/i18n';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

export type StarState = 'full' | 'half' | 'empty';

/** SPEC.md: a full star at or above each integer, a half star from .5, else empty. */
export function starStates(value: number, max = 5): StarState[] {
  const safe = Number.isFinite(value) ? Math.min(Math.max(value, 0), max) : 0;
  return Array.from({ length: max }, (_, index) => {
    const position = index + 1;
    if (safe >= position) return 'full';
    if (safe >= position - 0.5) return 'half';
    return 'empty';
  });
}

function StarIcon({ state }: { state: StarState }) {
  return (
    <span data-state={state} className="relative inline-flex size-4">
      <Star aria-hidden="true" className={cn('size-4', state === 'full' ? 'fill-current' : 'fill-transparent')} />
      {state === 'half' && (
        // The left half of a filled star laid over the outline.
        <span className="absolute inset-y-0 left-0 w-1/2 overflow-hidden">
          <Star aria-hidden="true" className="size-4 fill-current" />
        </span>
      )}
    </span>
  );
}

export type RatingProps = {
  value: number;
  /** Optional text after the stars, e.g. '12 reviews'. */
  text?: string;
  className?: string;
};

export function Rating({ value, text, className }: RatingProps) {
  const states = starStates(value);
  const shown = Number.isFinite(value) ? Math.round(value * 100) / 100 : 0;
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <span role="img" aria-label={t('rating.label', { value: formatNumber(shown), max: 5 })}
 className="inline-flex gap-0.5 text-rating">
        {states.map((state, index) => (
          <StarIcon key={index} state={state} />
        ))}
      </span>
      {text ? <span className="text-sm text-muted-foreground">{text}</span> : null}
    </div>
  );
}
