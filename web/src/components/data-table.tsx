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
    /** A column a phone can do without: left out of the row's card below the md breakpoint. */
    hideOnPhone?: boolean;
    /**
     * The cell's label in a row's card on a phone, where the header is a component or says
     * too little; a text header is used as it is. A function is read when the table draws
     * (a label in the active language, for columns made at module level).
     */
    label?: string | (() => string);
    /** The row's buttons: kept in view on a wide screen (stuck to the table's right edge as it scrolls), at the bottom of the card on a phone. */
    actions?: boolean;
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

/**
 * Every admin list's layout on a phone (below md): each row is a card of label/value lines,
 * the labels from the column headers (CSS-drawn from data-label, so the cell's text stays
 * its value), with the row's actions across the bottom. Nothing is wider than the screen,
 * so nothing scrolls sideways. From md up it is an ordinary table, whose actions column
 * sticks to its right edge when the table is wider than the page. (The table's parts carry
 * explicit roles, components/ui/table.tsx, so it stays a table to screen readers.)
 */
export const phoneCards = {
  table: 'max-md:block',
  header: 'max-md:sr-only',
  body: 'max-md:block',
  row: 'max-md:flex max-md:flex-col max-md:gap-1 max-md:px-3 max-md:py-3',
  /** A labelled line: the label on the left, the value (wrapped anywhere it must) beside it. */
  cell: cn(
    'max-md:grid max-md:max-w-none max-md:grid-cols-[minmax(5rem,2fr)_minmax(0,5fr)] max-md:items-baseline max-md:gap-x-3 max-md:p-0 max-md:text-left max-md:whitespace-normal max-md:[overflow-wrap:anywhere] max-md:[&>*]:col-start-2',
    'max-md:before:text-xs max-md:before:font-medium max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]',
  ),
  /** A cell without a label (the row's actions): full width. */
  unlabelled: 'max-md:block max-md:max-w-none max-md:p-0 max-md:whitespace-normal',
  actions: 'max-md:mt-1 max-md:border-t max-md:pt-3 md:sticky md:right-0 md:bg-background',
  hidden: 'max-md:hidden',
} as const;

/** The text a column's cells are labelled with in a phone's card: meta.label, else a text header. */
function cardLabel<TData>(column: ColumnDef<TData>): string | undefined {
  const label = column.meta?.label;
  if (label !== undefined) return (typeof label === 'function' ? label() : label) || undefined;

  return typeof column.header === 'string' && column.header ? column.header : undefined;
}

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
        <Table aria-label={label} className={phoneCards.table}>
          <TableHeader className={phoneCards.header}>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id}>
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta;
                  return (
                    <TableHead
                      key={header.id}
                      className={cn(meta?.hideOnPhone && phoneCards.hidden, meta?.actions && 'md:sticky md:right-0 md:bg-background')}
                    >
                      {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                    </TableHead>
                  );
                })}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody className={phoneCards.body}>
            {table.getRowModel().rows.map((row) => (
              <TableRow key={row.id} className={cn(phoneCards.row, rowClassName)}>
                {row.getVisibleCells().map((cell) => {
                  const meta = cell.column.columnDef.meta;
                  const cardText = cardLabel(cell.column.columnDef);
                  return (
                    <TableCell
                      key={cell.id}
                      data-label={cardText}
                      className={cn(
                        meta?.className,
                        cardText ? phoneCards.cell : phoneCards.unlabelled,
                        meta?.actions && phoneCards.actions,
                        meta?.hideOnPhone && phoneCards.hidden,
                      )}
                    >
                      {/* One grid item beside the label, whatever the cell renders. */}
                      <div className="min-w-0">{flexRender(cell.column.columnDef.cell, cell.getContext())}</div>
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </AdminTableState>
      <LoadMore list={list} {...(moreLabel ? { label: moreLabel } : {})} />
    </>
  );
}
