import type { ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { t } from '@/i18n/i18n';

/**
 * SPEC.md section 9: an admin list's date is the first 10 characters of createdAt. Its
 * header ('DATE', or `header`) is drawn in the active language when the table draws (a
 * list's columns are made at module level, before a language is chosen).
 */
export function dayColumn<TData extends { createdAt: string }>(header?: string): ColumnDef<TData> {
  const text = () => header ?? t('table.date');
  return { id: 'createdAt', header: text, meta: { label: text }, accessorFn: (row) => row.createdAt.substring(0, 10) };
}

/**
 * The last column: a row's buttons, right-aligned, under a header only screen readers read;
 * kept in view (DataTable: stuck to the right edge, or across the bottom of a phone's card).
 * `render` returns a component that holds its own mutation, so each row's button shows its
 * own pending state.
 */
export function actionsColumn<TData>(render: (row: TData) => ReactNode): ColumnDef<TData> {
  return {
    id: 'actions',
    header: () => <span className="sr-only">{t('table.actions')}</span>,

    cell: ({ row }) => render(row.original),
    meta: { className: 'text-right', actions: true },
  };
}
