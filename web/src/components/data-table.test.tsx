import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef } from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import { usePagedQuery } from '@/lib/paged-query';
import { mockApi, reply, type MockRequest } from '@/testing/mock-api';
import { renderPage } from '@/testing/render-app';
import { DataTable } from './data-table';
import { actionsColumn, dayColumn } from './data-table-columns';

type Thing = { _id: string; name: string; price: number; createdAt: string };

const things: Thing[] = [
  { _id: 't1', name: 'Anvil', price: 12, createdAt: '2026-03-04T10:00:00.000Z' },
  { _id: 't2', name: 'Bellows', price: 3.5, createdAt: '2026-05-06T23:59:00.000Z' },
];

/** A row's own state: opening it must survive a later page being read. */
function Toggle({ thing }: { thing: Thing }) {
  const [open, setOpen] = useState(false);
  return (
    <button type="button" aria-pressed={open} onClick={() => setOpen(!open)}>
      {`Open ${thing.name}`}
    </button>
  );
}

const COLUMNS: ColumnDef<Thing>[] = [
  { accessorKey: '_id', header: 'ID', meta: { className: 'font-mono' } },
  { id: 'name', header: 'NAME', cell: ({ row }) => <strong>{row.original.name.toUpperCase()}</strong> },
  { id: 'price', header: 'PRICE', accessorFn: (thing) => `$${thing.price.toFixed(2)}` },
  dayColumn(),
  actionsColumn((thing) => <Toggle thing={thing} />),
];

function ThingList() {
  const list = usePagedQuery<Thing>(['things'], '/api/things');
  return <DataTable columns={COLUMNS} list={list} label="Things" emptyText="No things yet." moreLabel="More things" />;
}

describe('DataTable', () => {
  it('shows a spinner while the first page loads, then lays the rows out by their column definitions', async () => {
    let answer: (value: unknown) => void = () => {};
    mockApi({ 'GET /api/things': () => new Promise((resolve) => (answer = resolve)) });
    renderPage(<ThingList />);

    expect(await screen.findByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    answer(things);

    const table = await screen.findByRole('table', { name: 'Things' });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['ID', 'NAME', 'PRICE', 'DATE', 'Actions']);
    const [, first, second] = within(table).getAllByRole('row') as HTMLElement[];
    const cells = within(first!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['t1', 'ANVIL', '$12.00', '2026-03-04', 'Open Anvil']);
    expect(cells[0]).toHaveClass('font-mono');
    expect(within(cells[1]!).getByText('ANVIL').tagName).toBe('STRONG');
    expect(within(second!).getByText('2026-05-06')).toBeInTheDocument();
    // One page only: no Load more.
    expect(screen.queryByRole('button', { name: 'More things' })).not.toBeInTheDocument();
  });

  it("shows the api's error in a red alert, and the empty text for an empty list", async () => {
    mockApi({ 'GET /api/things': reply(400, { message: 'Bad filter' }) });
    const { unmount } = renderPage(<ThingList />);
    expect(await screen.findByText('Error: Bad filter')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    unmount();

    mockApi({ 'GET /api/things': [] });
    renderPage(<ThingList />);
    expect(await screen.findByText('No things yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('reads the page the Link header names with "Load more", adds its rows, and keeps each row\'s state', async () => {
    const next = '/api/things?cursor=t2';
    const { requests } = mockApi({
      'GET /api/things': (r: MockRequest) =>
        r.path.includes('cursor=') ? [{ _id: 't3', name: 'Chisel', price: 1, createdAt: '2026-06-01T00:00:00.000Z' }] : reply(200, things, { Link: `<${next}>; rel="next"` }),
    });
    renderPage(<ThingList />);

    const open = await screen.findByRole('button', { name: 'Open Anvil' });
    await userEvent.click(open);
    expect(open).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'More things' }));
    expect(await screen.findByText('CHISEL')).toBeInTheDocument();
    expect(requests.at(-1)?.path).toBe(next);
    expect(within(screen.getByRole('table', { name: 'Things' })).getAllByRole('row')).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Open Anvil' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('button', { name: 'More things' })).not.toBeInTheDocument();
  });
});
