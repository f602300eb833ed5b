import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getUserInfo } from '@/stores/auth-store';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const TOKEN = 'tok3n-from-the-e-mail-0123456789';

describe('Cancel a cashout to a new wallet (the e-mail link)', () => {
  it('changes nothing when opened: the button sends the token, then the answer shows and this browser is signed out', async () => {
    signIn();
    const message = 'Cancelled: $650.00 is back in your active balance. The wallet 0x6161616161616161616161616161616161616161 is blocked for your account, and every session of your account was signed out: sign in and change your password.';
    const { sent } = mockApi({
      'POST /api/users/cashout/cancel': { message, wallet: '0x6161616161616161616161616161616161616161', cancelled: 1, returnedUsd: 650, stillPaying: 0 },
    });
    renderApp(`/cashout/cancel?token=${TOKEN}`);
    const button = await screen.findByRole('button', { name: 'Cancel cashout and block wallet' });
    expect(sent('POST /api/users/cashout/cancel')).toHaveLength(0);
    await userEvent.click(button);
    expect(await screen.findByRole('status')).toHaveTextContent(message);
    expect(screen.getByRole('heading', { name: 'Cashout cancelled' })).toBeInTheDocument();
    expect(sent('POST /api/users/cashout/cancel')[0]?.body).toEqual({ token: TOKEN });
    expect(screen.getByRole('link', { name: 'Set a new password' })).toHaveAttribute('href', '/forgot-password');
    expect(getUserInfo()).toBeNull();
  });

  it('shows why a link fails', async () => {
    mockApi({ 'POST /api/users/cashout/cancel': reply(400, { message: 'This link is not valid, or it has expired.' }) });
    renderApp(`/cashout/cancel?token=${TOKEN}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel cashout and block wallet' }));
    expect(await screen.findByText('This link is not valid, or it has expired.')).toBeInTheDocument();
  });

  it('without a token, the button is off', async () => {
    renderApp('/cashout/cancel');
    expect(await screen.findByText('This page needs the link from the e-mail we sent you.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel cashout and block wallet' })).toBeDisabled();
  });
});
