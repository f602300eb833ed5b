import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeOrder, signIn } from '@/testing/fixtures';
import { mockApi, reply, type MockRequest } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const orders = [
  {
    ...makeOrder({ _id: 'o1', user: { _id: 'u1', name: 'Alice Buyer' }, totalPrice: 249.5, isPaid: true }),
    payments: [{ txHash: `0xabc123def4${'0'.repeat(54)}`, status: 'COUNTED', asset: 'ETH', amount: '83166666666666666', usdValue: 249.5 }],
    canDelete: false,
    deleteBlockedReason: 'Paid orders cannot be deleted',
  },
  { ...makeOrder({
    _id: 'o2',
    user: { _id: 'u2', name: 'Bob' },
    createdAt: '2026-05-06T00:00:00.000Z',
    totalPrice: 20,
    isPaid: false,
    status: 'PENDING_PAYMENT',
  }), payments: [], canDelete: true, deleteBlockedReason: null },
];

describe('OrderListPage', () => {
  it('lists ID, USER, DATE, TOTAL, PAID and the status of every order', async () => {
    signIn({ isAdmin: true });
    mockApi({ 'GET /api/orders': orders });
    renderApp('/admin/orderlist');

    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 5)).toEqual(['ID', 'USER', 'DATE', 'TOTAL', 'PAID']);

    const [, paid, unpaid] = within(table).getAllByRole('row') as HTMLElement[];
    expect(within(paid!).getByText('o1')).toBeInTheDocument();
    expect(within(paid!).getByText('Alice Buyer')).toBeInTheDocument();
    expect(within(paid!).getByText('2026-03-04')).toBeInTheDocument();
    expect(within(paid!).getByText('USD $249.50')).toBeInTheDocument();
    expect(within(paid!).getByRole('img', { name: 'Paid' })).toBeInTheDocument();
    expect(within(unpaid!).getByRole('img', { name: 'Not paid' })).toBeInTheDocument();
    expect(within(unpaid!).getByText('Pending payment')).toBeInTheDocument();
    expect(within(unpaid!).getByText('2026-05-06')).toBeInTheDocument();
    // The admin sees each order's transfers.
    expect(within(paid!).getByTitle(`0xabc123def4${'0'.repeat(54)}`)).toHaveTextContent('0xabc123de… Counted 0.083166 ETH (USD $249.50)');
    expect(within(unpaid!).getByText('None')).toBeInTheDocument();
  });

  it("deletes an unpaid order after a confirmation naming it, with 'Order deleted!', and reports 'Failed to delete order.'", async () => {
    signIn({ isAdmin: true });
    let fail = false;
    const { sent } = mockApi({
      'GET /api/orders': orders,
      'DELETE /api/orders/o2/delete': () => (fail ? reply(500, { message: 'boom' }) : { message: 'Order removed' }),
    });
    renderApp('/admin/orderlist');

    // The paid order offers no delete: the reason stands in its place.
    const [, paid, unpaid] = (await screen.findAllByRole('row')) as HTMLElement[];
    expect(within(paid!).queryByRole('button', { name: 'Delete Order' })).not.toBeInTheDocument();
    expect(within(paid!).getByText('Paid orders cannot be deleted')).toBeInTheDocument();
    expect(within(paid!).getByRole('link', { name: 'o1' })).toHaveAttribute('href', '/admin/order/o1');

    // Cancel keeps it; confirming deletes it.
    await userEvent.click(within(unpaid!).getByRole('button', { name: 'Delete Order' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete order o2?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent('DELETE /api/orders/o2/delete')).toHaveLength(0);
    await userEvent.click(within(unpaid!).getByRole('button', { name: 'Delete Order' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete Order' }));
    expect(await screen.findByText('Order deleted!')).toBeInTheDocument();
    expect(sent('DELETE /api/orders/o2/delete')).toHaveLength(1);

    fail = true;
    await userEvent.click((await screen.findAllByRole('button', { name: 'Delete Order' }))[0]!);
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete Order' }));
    expect(await screen.findByText('Failed to delete order.')).toBeInTheDocument();
  });

  it('pages with "More orders" and keeps its search and status filter in the URL', async () => {
    signIn({ isAdmin: true });
    const next = '/api/orders?status=PAID&q=alice&cursor=abc';
    const { requests } = mockApi({
      'GET /api/orders': (r: MockRequest) =>
        r.path.includes('cursor=') ? [{ ...orders[0]!, _id: 'o3' }] : r.path.includes('q=alice') ? reply(200, [orders[0]], { Link: `<${next}>; rel="next"` }) : orders,
    });
    const { router } = renderApp('/admin/orderlist');
    await screen.findByText('o2');
    expect(screen.queryByRole('button', { name: 'More orders' })).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search orders' }), 'alice{Enter}');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'PAID');
    await screen.findByRole('button', { name: 'More orders' });
    expect(router.location.search).toBe('?q=alice&status=PAID');
    expect(screen.queryByText('o2')).not.toBeInTheDocument();
    expect(requests.at(-1)?.path).toBe('/api/orders?status=PAID&q=alice');

    await userEvent.click(screen.getByRole('button', { name: 'More orders' }));
    expect(await screen.findByText('o3')).toBeInTheDocument();
    expect(screen.getByText('o1')).toBeInTheDocument();
    expect(requests.at(-1)?.path).toBe(next);
    expect(screen.queryByRole('button', { name: 'More orders' })).not.toBeInTheDocument();
  });
});
