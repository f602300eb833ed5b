import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { makeOrder, signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { TX_MISSING_REDIRECT_MS } from './purchased';

const HASH = `0x${'ab'.repeat(32)}`;
const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('PurchasedPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows 'Success Pay' with the transaction hash from ?tx=, linked to the shop's explorer", async () => {
    signIn();
    mockApi({ 'GET /api/config': { network: { chainId: 1, name: 'Ethereum mainnet', testNetwork: false, developmentChain: false, explorerUrl: 'https://etherscan.io' } } });
    renderApp(`/order/o1/purchased?tx=${HASH}`);
    expect(await screen.findByRole('heading', { name: 'Success Pay' })).toBeInTheDocument();
    expect(screen.getByTestId('tx-hash')).toHaveTextContent(HASH);
    expect(await screen.findByRole('link', { name: /View on Etherscan/ })).toHaveAttribute('href', `https://etherscan.io/tx/${HASH}`);
  });

  it('links no explorer when the shop names none (a local chain)', async () => {
    signIn();
    const { sent } = mockApi({ 'GET /api/config': { network: { chainId: 1, name: 'Local development chain', testNetwork: true, developmentChain: true, explorerUrl: null } } });
    renderApp(`/order/o1/purchased?tx=${HASH}`);
    expect(await screen.findByRole('heading', { name: 'Success Pay' })).toBeInTheDocument();
    await waitFor(() => expect(sent('GET /api/config')).toHaveLength(1));
    expect(await screen.findByText('Test network: Local development chain. Payments here are not real money.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /View on/ })).not.toBeInTheDocument();
  });

  it('puts a decision waiting for the buyer (an overpayment to credit or refund) at the top, before the receipt, and takes it there', async () => {
    signIn();
    const { sent } = mockApi({
      'GET /api/orders/o1': makeOrder({
        _id: 'o1',
        totalPrice: 21,
        paidUsd: 24,
        quote: null,
        payments: [],
        overpayment: { usd: 3, creditUsd: 2.5, wei: '1000000000000000', eth: '0.001000', from: PAYER, refundable: true, parts: [{ txHash: HASH, from: PAYER, asset: 'ETH', amount: '1000000000000000', wei: '1000000000000000', eth: '0.001000', usd: 3 }] },
      }),
      'POST /api/orders/o1/overpayment': { message: 'Added to your active balance: $2.50.' },
    });
    renderApp(`/order/o1/purchased?tx=${HASH}`);
    const decision = await screen.findByRole('region', { name: 'Overpayment' });
    expect(within(decision).getByText('You paid $3.00 (0.001000 ETH) more than the order total.')).toBeInTheDocument();
    // Right under 'Success Pay': before the receipt, not below it.
    const heading = screen.getByRole('heading', { name: 'Success Pay' });
    const receipt = await screen.findByRole('heading', { name: /^Receipt/ });
    expect(heading.compareDocumentPosition(decision) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(decision.compareDocumentPosition(receipt) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('status')).toHaveTextContent('One thing waits for you: you paid more than the order total. Add it to your balance or have it refunded below.');
    await userEvent.click(within(decision).getByRole('button', { name: 'Add to my balance' }));
    await waitFor(() => expect(sent('POST /api/orders/o1/overpayment')[0]?.body).toEqual({ action: 'balance' }));
  });

  it("shows 'Transaction not find' in a red alert and a toast without tx, then goes home", async () => {
    signIn();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('[]', { status: 200 })));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = renderApp('/order/o1/purchased');
    const main = await screen.findByRole('alert');
    expect(within(main).getByText('Transaction not find')).toBeInTheDocument();
    // The alert, and the toast once it shows.
    await waitFor(() => expect(screen.getAllByText('Transaction not find')).toHaveLength(2));
    expect(router.location.pathname).toBe('/order/o1/purchased');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(TX_MISSING_REDIRECT_MS);
    });
    // The home route loads lazily, so the navigation settles a moment later.
    await waitFor(() => expect(router.location.pathname).toBe('/'));
  });
});
