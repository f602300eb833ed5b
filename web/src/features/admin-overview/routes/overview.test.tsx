import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { addDays, utcDay, type AdminOverviewJson } from '@shop/core/contract';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const overview = (over: Partial<AdminOverviewJson> = {}): AdminOverviewJson => ({
  from: '2026-03-01',
  to: '2026-03-03',
  days: [
    { day: '2026-03-01', revenue: '150.00', paidOrders: 2 },
    { day: '2026-03-02', revenue: '125.00', paidOrders: 1 },
    { day: '2026-03-03', revenue: '0.00', paidOrders: 0 },
  ],
  totals: { revenue: '275.00', paidOrders: 3, newUsers: 4, referralRewards: '7.50', relayGasUsd: '0.42', relayGasWei: '143000000000000', relayedPayments: 3 },
  ordersByStatus: [
    { status: 'PAID', count: 3 },
    { status: 'PENDING_PAYMENT', count: 1 },
    { status: 'EXPIRED', count: 0 },
  ],
  needsAction: { payments: 2, cashouts: 1, cashoutsUsd: '60.00' },
  topPackages: [{ productId: 'p1', name: 'Gold Package', revenue: '200.00', qty: 2, orders: 2 }],
  ...over,
});

const TWO_FACTOR = { 'GET /api/users/2fa': { on: false, totp: false, passkeys: [], recoveryCodesLeft: 0, required: false } };

describe('OverviewPage', () => {
  it('shows the range\'s figures, the days as a table, open work and the CSV links of the range', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const { sent } = mockApi({ ...TWO_FACTOR, 'GET /api/admin/overview': overview() });
    renderApp('/admin?from=2026-03-01&to=2026-03-03');
    const days = await screen.findByRole('table', { name: 'Revenue and paid orders per day' });
    expect(sent('GET /api/admin/overview').at(-1)?.path).toBe('/api/admin/overview?from=2026-03-01&to=2026-03-03');
    // Newest first, exact amounts.
    expect(within(days).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['2026-03-03', 'USD $0.00', '0'],
      ['2026-03-02', 'USD $125.00', '1'],
      ['2026-03-01', 'USD $150.00', '2'],
    ]);
    expect(screen.getByText('USD $275.00 from 3 paid orders over 3 days (UTC); the best day was 2026-03-01 with USD $150.00. Every day is in the table below.')).toBeInTheDocument();
    // The gas the shop paid for the buyers' signed payments: a cost of sale, with how many it covers.
    const gas = screen.getByRole('group', { name: 'Gas paid for signed payments' });
    expect(within(gas).getByText('USD $0.42')).toBeInTheDocument();
    expect(gas).toHaveTextContent(/^Gas paid for signed paymentsUSD \$0\.423 payments · 0\.000143 ETH$/);
    expect(screen.getByRole('link', { name: '2' })).toHaveAttribute('href', '/admin/payments');
    expect(screen.getByRole('link', { name: '1' })).toHaveAttribute('href', '/admin/cashouts');
    expect(screen.getByText('Pending payment')).toBeInTheDocument();
    expect(screen.queryByText('Expired')).not.toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Top packages' })).getByText('Gold Package')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Paid orders (revenue)' })).toHaveAttribute('href', '/api/admin/export/paid-orders.csv?from=2026-03-01&to=2026-03-03');
    expect(screen.getByRole('link', { name: 'Ledger' })).toHaveAttribute('href', '/api/admin/export/ledger.csv?from=2026-03-01&to=2026-03-03');
  });

  it('downloads a CSV once this session has a fresh second factor: asked for in the dialog when needed', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    let checks = 0;
    const { sent } = mockApi({
      ...TWO_FACTOR,
      'GET /api/admin/overview': overview(),
      'GET /api/admin/export/ready': () => (checks++ === 0 ? reply(403, { message: 'Confirm it is you: enter a code from your authenticator app.', stepUpRequired: true }) : reply(204, undefined)),
      'POST /api/users/2fa/step-up': { message: 'Confirmed' },
    });
    const followed: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      followed.push(this.getAttribute('href') ?? '');
    });
    try {
      renderApp('/admin?from=2026-03-01&to=2026-03-03');
      await userEvent.click(await screen.findByRole('link', { name: 'Ledger' }));
      const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
      expect(followed).toEqual([]);
      await userEvent.type(within(dialog).getByLabelText('Authentication code'), '123456');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
      await waitFor(() => expect(followed).toEqual(['/api/admin/export/ledger.csv?from=2026-03-01&to=2026-03-03']));
      expect(sent('GET /api/admin/export/ready')).toHaveLength(2);
    } finally {
      click.mockRestore();
    }
  });

  it('starts on the last 30 days, switches with the presets, and refuses a range the api would not read', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const { sent } = mockApi({ ...TWO_FACTOR, 'GET /api/admin/overview': overview() });
    const { router } = renderApp('/admin');
    const today = utcDay(new Date());
    await screen.findByRole('table', { name: 'Revenue and paid orders per day' });
    expect(sent('GET /api/admin/overview')[0]?.path).toBe(`/api/admin/overview?from=${addDays(today, -29)}&to=${today}`);
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() => expect(router.location.search).toBe(`?from=${addDays(today, -6)}&to=${today}`));
    await waitFor(() => expect(sent('GET /api/admin/overview').at(-1)?.path).toBe(`/api/admin/overview?from=${addDays(today, -6)}&to=${today}`));

    const from = screen.getByLabelText('From', { exact: true });
    await userEvent.clear(from);
    await userEvent.type(from, '2020-01-01');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('At most 366 days at a time');
    expect(router.location.search).toBe(`?from=${addDays(today, -6)}&to=${today}`);
  });
});
