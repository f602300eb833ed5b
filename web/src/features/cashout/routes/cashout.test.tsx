import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const PRICE = { price: '3000.00000000', updatedAt: '2026-05-01T00:00:00.000Z' };

function renderCashout(activeBalance: number, extra: Record<string, unknown> = {}) {
  signIn({ activeBalance });
  const api = mockApi({
    'GET /api/users/profile': makeUser({ activeBalance }),
    'GET /api/crypto/eth-price': PRICE,
    'GET /api/orders/mine': [],
    ...extra,
  });
  return { ...api, ...renderApp('/profile/cashout') };
}

async function submit(wallet = WALLET) {
  await userEvent.type(await screen.findByLabelText('Wallet Address'), wallet);
  await userEvent.click(screen.getByRole('button', { name: /^Cashout/ }));
}

describe('CashoutPage', () => {
  it('warns about mainnet and the 1-24 hours, states the minimum and prices the balance in ETH', async () => {
    renderCashout(30);
    expect(await screen.findByText(/must be on the ETH mainnet \(Ethereum Mainnet\)/)).toBeInTheDocument();
    expect(screen.getByText(/within 1-24 hours/)).toBeInTheDocument();
    expect(screen.getByText('minimum cashout of 20 AZN')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Cashout (0.010000)' })).toBeInTheDocument();
    expect(screen.getByText('30.00')).toBeInTheDocument();
  });

  it('shows a spinner in the button while the price loads', async () => {
    renderCashout(30, { 'GET /api/crypto/eth-price': () => new Promise(() => undefined) });
    expect(await screen.findByRole('status', { name: 'Loading ETH price' })).toBeInTheDocument();
  });

  it('shows a red alert with the message when the price is unavailable, and still offers the cashout', async () => {
    renderCashout(30, { 'GET /api/crypto/eth-price': reply(503, { message: 'ETH price unavailable' }) });
    expect(await screen.findByText('Error: ETH price unavailable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cashout' })).toBeEnabled();
  });

  it("says 'Not Enough Money' for a balance of 20 and sends nothing", async () => {
    const { sent } = renderCashout(20);
    await screen.findByRole('button', { name: 'Cashout (0.006667)' });
    await submit();
    expect((await screen.findAllByText('Not Enough Money')).length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('alert')).toHaveTextContent('Not Enough Money');
    expect(sent('POST /api/users/cashout')).toHaveLength(0);
  });

  it("cashes out: 'Cashout Success', the stored user has balance 0, back to /profile", async () => {
    const updated = makeUser({ activeBalance: 0 });
    const { sent, router } = renderCashout(30, { 'POST /api/users/cashout': updated });
    await submit();

    expect(await screen.findByText('Cashout Success')).toBeInTheDocument();
    expect(sent('POST /api/users/cashout')[0]?.body).toEqual({ wallet: WALLET });
    expect(JSON.parse(window.localStorage.getItem('userInfo') ?? 'null')).toEqual(updated);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });

  it("shows the server's message in a toast and an alert", async () => {
    const { router } = renderCashout(30, {
      'POST /api/users/cashout': reply(400, { message: 'wallet must be an Ethereum address' }),
    });
    await submit('0x1234');
    expect((await screen.findAllByText('wallet must be an Ethereum address')).length).toBeGreaterThanOrEqual(2);
    expect(router.state.location.pathname).toBe('/profile/cashout');
    expect(JSON.parse(window.localStorage.getItem('userInfo') ?? 'null')).toMatchObject({ activeBalance: 30 });
  });
});
