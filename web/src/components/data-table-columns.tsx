import type { ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';

/** SPEC.md section 9: an admin list's date is the first 10 characters of createdAt. */
export function dayColumn<TData extends { createdAt: string }>(header = 'DATE'): ColumnDef<TData> {
  return { id: 'createdAt', header, accessorFn: (row) => row.createdAt.substring(0, 10) };
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
    header: () => <span className="sr-only">Actions</span>,
    cell: ({ row }) => render(row.original),
    meta: { className: 'text-right', actions: true },
  };
}
