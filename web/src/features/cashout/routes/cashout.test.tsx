import { screen, waitFor, within } from '@testing-library/react';
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

/** What the server says a cashout of `amountUsd` to WALLET would do. */
const preview = (amountUsd: number, holdUntil: string | null = null) => ({ amountUsd, wallet: WALLET, newWallet: holdUntil !== null, holdUntil });

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
    await screen.findByRole('button', { name: 'Cashout (0.006666)' });
    await submit();
    // The alert, and the toast once the page's toasts have loaded (the first one asked for loads them).
    await waitFor(() => expect(screen.getAllByText('Not Enough Money').length).toBeGreaterThanOrEqual(2));
    expect(screen.getByRole('alert')).toHaveTextContent('Not Enough Money');
    expect(sent('POST /api/users/cashout')).toHaveLength(0);
  });

  it('shows what will happen and sends nothing until it is confirmed: Cancel keeps the balance', async () => {
    const { sent } = renderCashout(30, { 'POST /api/users/cashout/preview': preview(30), 'POST /api/users/cashout': makeUser({ activeBalance: 0 }) });
    await screen.findByRole('button', { name: 'Cashout (0.010000)' });
    await submit();
    const dialog = await screen.findByRole('alertdialog', { name: 'Confirm your cashout' });
    expect(dialog).toHaveTextContent('30.00 USD (about 0.010000 ETH)');
    expect(dialog).toHaveTextContent(WALLET);
    expect(dialog).toHaveTextContent('Coins are sent to your wallet within 1-24 hours.');
    expect(sent('POST /api/users/cashout/preview')[0]?.body).toEqual({ wallet: WALLET });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(sent('POST /api/users/cashout')).toHaveLength(0);
  });

  it('says, for a wallet new to the account, that it is e-mailed with a link to cancel it and waits until a time', async () => {
    renderCashout(650, { 'POST /api/users/cashout/preview': preview(650, '2026-11-29T08:15:00.000Z') });
    await submit();
    const dialog = await screen.findByRole('alertdialog', { name: 'Confirm your cashout' });
    expect(within(dialog).getByRole('note')).toHaveTextContent(
      'A wallet new to your accountWe e-mail you about it at once, with a link to cancel it, and it waits until 2026-11-29 08:15 UTC before it is paid.',
    );
  });

  it("cashes out once confirmed: 'Cashout Success', the stored user has balance 0, back to /profile", async () => {
    const updated = makeUser({ activeBalance: 0 });
    const { sent, router } = renderCashout(30, { 'POST /api/users/cashout/preview': preview(30), 'POST /api/users/cashout': updated });
    await submit();
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirm cashout' }));

    expect(await screen.findByText('Cashout Success')).toBeInTheDocument();
    expect(sent('POST /api/users/cashout')[0]?.body).toEqual({ wallet: WALLET });
    expect(JSON.parse(window.localStorage.getItem('userInfo') ?? 'null')).toEqual(updated);
    await waitFor(() => expect(router.location.pathname).toBe('/profile'));
  });

  it("shows the server's message in a toast and an alert", async () => {
    const { router, sent } = renderCashout(30, {
      'POST /api/users/cashout/preview': reply(400, { message: 'wallet must be an Ethereum address' }),
    });
    await submit('0x1234');
    expect((await screen.findAllByText('wallet must be an Ethereum address')).length).toBeGreaterThanOrEqual(2);
    expect(router.location.pathname).toBe('/profile/cashout');
    expect(JSON.parse(window.localStorage.getItem('userInfo') ?? 'null')).toMatchObject({ activeBalance: 30 });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(sent('POST /api/users/cashout')).toHaveLength(0);
  });

  it('with a second factor on, asks for it after the confirmation and then sends the cashout again', async () => {
    let stepped = false;
    const { sent } = renderCashout(30, {
      'POST /api/users/cashout/preview': preview(30),
      'POST /api/users/cashout': () => (stepped ? makeUser({ activeBalance: 0 }) : reply(403, { message: 'Confirm it is you: enter a code from your authenticator app.', stepUpRequired: true })),
      'GET /api/users/2fa': { on: true, totp: true, passkeys: [], recoveryCodesLeft: 10, required: false },
      'POST /api/users/2fa/step-up': () => {
        stepped = true;
        return { message: 'Confirmed' };
      },
    });
    await submit();
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirm cashout' }));
    // The step-up dialog's code loads when it is first needed.
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await userEvent.type(within(stepUp).getByLabelText('Authentication code'), '123456');
    await userEvent.click(within(stepUp).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Cashout Success')).toBeInTheDocument();
    expect(sent('POST /api/users/cashout')).toHaveLength(2);
  });
});
