import type { ReactNode } from 'react';
import { ErrorAlert } from '@/components/error-alert';
import { PageSpinner } from '@/components/ui/spinner';

type AdminTableStateProps = {
  isPending: boolean;
  error: unknown;
  isEmpty: boolean;
  emptyText: string;
  children: ReactNode;
};

/** Spinner, red alert, empty text or the table itself: the four states of an admin list. */
export function AdminTableState({ isPending, error, isEmpty, emptyText, children }: AdminTableStateProps) {
  if (isPending) return <PageSpinner />;
  if (error) return <ErrorAlert error={error} />;
  if (isEmpty) return <p className="rounded-xl border border-dashed px-6 py-10 text-center text-muted-foreground">{emptyText}</p>;
  // Clipped to its rounded corners: a sticky actions cell (DataTable) paints its own background.
  return <div className="overflow-hidden rounded-xl border">{children}</div>;
}
