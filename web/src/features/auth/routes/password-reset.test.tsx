import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getUserInfo } from '@/stores/auth-store';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('Forgot password', () => {
  it("is linked from the sign-in page and shows the server's one answer after sending the e-mail", async () => {
    const message = 'If an account uses this e-mail, a link to set a new password is on its way. It works once, for 30 minutes.';
    const { sent } = mockApi({ 'POST /api/users/password-reset': reply(202, { message }) });
    const { router } = renderApp('/login');
    await userEvent.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await waitFor(() => expect(router.location.pathname).toBe('/forgot-password'));
    // The sign-in page has an 'Email Address' too: type once the lazily loaded page is shown.
    await screen.findByText('Enter the e-mail of your account: we send it a link to set a new password.');
    await userEvent.type(screen.getByLabelText('Email Address'), 'alice@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(message);
    expect(sent('POST /api/users/password-reset')[0]?.body).toEqual({ email: 'alice@example.com' });
  });
});

describe('Set a new password', () => {
  const fill = async (password: string, confirm: string) => {
    await userEvent.type(await screen.findByLabelText('New password'), password);
    await userEvent.type(screen.getByLabelText('Confirm new password'), confirm);
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
  };

  it('sends the token from the link with the new password, then signs this browser out and offers to sign in', async () => {
    signIn();
    const { sent } = mockApi({
      'POST /api/users/password-reset/check': { message: 'This link works: choose a new password.' },
      'POST /api/users/password-reset/confirm': { message: 'Your password was changed. Sign in with the new one.' },
    });
    renderApp('/reset-password?token=abc123abc123abc123abc123');
    await fill('brand-new-password', 'brand-new-password');
    expect(await screen.findByRole('status')).toHaveTextContent('Your password was changed. Sign in with the new one.');
    expect(sent('POST /api/users/password-reset/confirm')[0]?.body).toEqual({ token: 'abc123abc123abc123abc123', password: 'brand-new-password' });
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(getUserInfo()).toBeNull();
  });

  it('says when the two passwords differ (nothing sent), and shows why a used link fails', async () => {
    const { sent } = mockApi({ 'POST /api/users/password-reset/confirm': reply(400, { message: 'This reset link has expired or was already used. Ask for a new one.' }) });
    renderApp('/reset-password?token=abc123abc123abc123abc123');
    await fill('brand-new-password', 'brand-new-passwore');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(sent('POST /api/users/password-reset/confirm')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'brand-new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('This reset link has expired or was already used. Ask for a new one.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new one' })).toHaveAttribute('href', '/forgot-password');
  });

  it('opening a used link says so at once, before any password is typed, and offers a new one', async () => {
    const { sent } = mockApi({ 'POST /api/users/password-reset/check': reply(400, { message: 'This reset link has expired or was already used. Ask for a new one.' }) });
    renderApp('/reset-password?token=abc123abc123abc123abc123');
    expect(await screen.findByText('This reset link has expired or was already used. Ask for a new one.')).toBeInTheDocument();
    expect(sent('POST /api/users/password-reset/check')[0]?.body).toEqual({ token: 'abc123abc123abc123abc123' });
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set new password' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new one' })).toHaveAttribute('href', '/forgot-password');
  });

  it('without a token, explains that the e-mailed link is needed', async () => {
    renderApp('/reset-password');
    expect(await screen.findByText('This page needs the link from the e-mail we sent you.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set new password' })).toBeDisabled();
  });
});
