import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CashoutJson } from '@shop/core/contract';
import { routes } from '@/app/router';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderRoutes } from '@/testing/render-app';

const HASH = `0x${'ab'.repeat(32)}`;

function makeCashout(overrides: Partial<CashoutJson> = {}): CashoutJson {
  return {
    _id: 'c1',
    user: { _id: 'u1', name: 'Alice Buyer', email: 'alice@example.com' },
    wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    amountUsd: 30,
    ethUsd: '3000.00000000',
    amountEth: '0.010000',
    status: 'REQUESTED',
    payoutTxHash: null,
    createdAt: '2026-05-06T10:00:00.000Z',
    updatedAt: '2026-05-06T10:00:00.000Z',
    ...overrides,
  };
}

const cashouts = [
  makeCashout(),
  makeCashout({ _id: 'c2', status: 'PAID', payoutTxHash: HASH, createdAt: '2026-05-01T00:00:00.000Z' }),
];

function rows() {
  return within(screen.getByRole('table')).getAllByRole('row').slice(1) as HTMLElement[];
}

function renderList(extra: Record<string, unknown> = {}) {
  signIn({ _id: 'a1', isAdmin: true });
  const api = mockApi({ 'GET /api/admin/cashouts': cashouts, ...extra });
  renderRoutes(routes, '/admin/cashouts');
  return api;
}

describe('CashoutListPage', () => {
  it('lists the requests; only open ones can be marked paid or rejected', async () => {
    renderList();
    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 7)).toEqual(['ID', 'USER', 'WALLET', 'AMOUNT', 'ETH', 'STATUS', 'DATE']);

    const [open, paid] = rows();
    expect(within(open!).getByText('Alice Buyer')).toBeInTheDocument();
    expect(within(open!).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(open!).getByText('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBeInTheDocument();
    expect(within(open!).getByText('USD $30.00')).toBeInTheDocument();
    expect(within(open!).getByText('0.010000')).toBeInTheDocument();
    expect(within(open!).getByText('Requested')).toBeInTheDocument();
    expect(within(open!).getByText('2026-05-06')).toBeInTheDocument();
    expect(within(open!).getByRole('button', { name: 'Mark Paid' })).toBeInTheDocument();
    expect(within(open!).getByRole('button', { name: 'Reject' })).toBeInTheDocument();

    expect(within(paid!).getByText('Paid')).toBeInTheDocument();
    expect(within(paid!).getByTitle(HASH)).toBeInTheDocument();
    expect(within(paid!).queryByRole('button')).not.toBeInTheDocument();
  });

  it("'Mark Paid' asks for the payout hash and posts it", async () => {
    const { sent } = renderList({ 'POST /api/admin/cashouts/c1/paid': makeCashout({ status: 'PAID', payoutTxHash: HASH }) });
    await screen.findByRole('table');
    await userEvent.click(within(rows()[0]!).getByRole('button', { name: 'Mark Paid' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Payout tx hash' }), HASH);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Cashout marked as paid')).toBeInTheDocument();
    expect(sent('POST /api/admin/cashouts/c1/paid')[0]?.body).toEqual({ payoutTxHash: HASH });
    expect(sent('GET /api/admin/cashouts').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the server's message when marking paid fails", async () => {
    renderList({ 'POST /api/admin/cashouts/c1/paid': reply(409, { message: 'Cashout is already settled' }) });
    await screen.findByRole('table');
    await userEvent.click(within(rows()[0]!).getByRole('button', { name: 'Mark Paid' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Payout tx hash' }), HASH);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Cashout is already settled')).toBeInTheDocument();
  });

  it("rejects only after 'Are you sure'", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { sent } = renderList({ 'POST /api/admin/cashouts/c1/reject': makeCashout({ status: 'REJECTED' }) });
    await screen.findByRole('table');

    await userEvent.click(within(rows()[0]!).getByRole('button', { name: 'Reject' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure');
    expect(sent('POST /api/admin/cashouts/c1/reject')).toHaveLength(0);

    await userEvent.click(within(rows()[0]!).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(/Cashout rejected/)).toBeInTheDocument();
    expect(sent('POST /api/admin/cashouts/c1/reject')).toHaveLength(1);
  });

  it('shows a red alert when the list fails to load', async () => {
    renderList({ 'GET /api/admin/cashouts': reply(403, { message: 'Not authorized as an admin' }) });
    expect(await screen.findByText('Error: Not authorized as an admin')).toBeInTheDocument();
  });
});
