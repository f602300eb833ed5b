import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { TX_MISSING_REDIRECT_MS } from './purchased';

const HASH = `0x${'ab'.repeat(32)}`;

describe('PurchasedPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows 'Success Pay' with the transaction hash from ?tx=", async () => {
    signIn();
    renderApp(`/order/o1/purchased?tx=${HASH}`);
    expect(await screen.findByRole('heading', { name: 'Success Pay' })).toBeInTheDocument();
    expect(screen.getByTestId('tx-hash')).toHaveTextContent(HASH);
    expect(screen.getByRole('link', { name: /View on Etherscan/ })).toHaveAttribute('href', `https://etherscan.io/tx/${HASH}`);
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
    expect(router.state.location.pathname).toBe('/order/o1/purchased');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(TX_MISSING_REDIRECT_MS);
    });
    // The home route loads lazily, so the navigation settles a moment later.
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
