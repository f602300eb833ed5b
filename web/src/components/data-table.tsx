import type { ReactNode } from 'react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { AdminTableState } from '@/components/admin-table-state';
import { LoadMore } from '@/components/load-more';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { PagedList } from '@/lib/paged-query';
import { cn } from '@/lib/utils';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the parameters must match TanStack's own declaration to merge with it
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for the column's body cells: a mono id, a wallet that wraps, actions on the right. */
    className?: string;
    /** A column a phone can do without (its header and cells hidden below the md breakpoint), so the actions stay on screen. */
    hideOnPhone?: boolean;
  }
}

/** A paged list query (usePagedQuery's result): the rows read so far, its state, and what "Load more" needs. */
export type DataTableList<TData> = PagedList & { data: TData[] | undefined; isPending: boolean; error: unknown };

type DataTableProps<TData extends { _id: string }> = {
  /** The columns, defined once per list (module level, so a cell's component keeps its state across renders). */
  columns: ColumnDef<TData>[];
  list: DataTableList<TData>;
  emptyText: string;
  /** The table's accessible name, where the page has more than one table or names it. */
  label?: string;
  /** The "Load more" button's text ('More orders'). */
  moreLabel?: string;
  /** Filters above the table (SearchBox, StatusFilter), which keep their values in the URL. */
  toolbar?: ReactNode;
  rowClassName?: string;
};

const NO_ROWS: never[] = [];
const PHONE_HIDDEN = 'hidden md:table-cell';

/**
 * An admin list as a table driven by its column definitions (TanStack Table, in shadcn/ui's
 * data-table pattern), inside the four states of an admin list, with "Load more" under it.
 * The api pages, filters and orders the rows, so the table only lays them out: no client
 * sorting, filtering or pagination.
 */
export function DataTable<TData extends { _id: string }>({ columns, list, emptyText, label, moreLabel, toolbar, rowClassName }: DataTableProps<TData>) {
  // The app is not built with the React Compiler, which is what this warning is about: it
  // would skip memoising this component because the table instance is mutable.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: list.data ?? NO_ROWS,
    columns,
    getCoreRowModel: getCoreRowModel(),
    // Rows keyed by their id, so a row's open form stays with it when a poll or a later
    // page changes the rows around it.
    getRowId: (row) => row._id,
  });

  return (
    <>
      {toolbar ? <div className="flex flex-wrap items-center gap-3">{toolbar}</div> : null}
      <AdminTableState isPending={list.isPending} error={list.error} isEmpty={list.data?.length === 0} emptyText={emptyText}>
        <Table aria-label={label}>
          <TableHeader>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id}>
                {group.headers.map((header) => (
                  <TableHead key={header.id} className={header.column.columnDef.meta?.hideOnPhone ? PHONE_HIDDEN : undefined}>
                    {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                  </TableHead>
                ))}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>
            {table.getRowModel().rows.map((row) => (
              <TableRow key={row.id} className={rowClassName}>
                {row.getVisibleCells().map((cell) => (
                  <TableCell key={cell.id} className={cn(cell.column.columnDef.meta?.className, cell.column.columnDef.meta?.hideOnPhone && PHONE_HIDDEN)}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} {...(moreLabel ? { label: moreLabel } : {})} />
    </>
  );
}
