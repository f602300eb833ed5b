import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getUserInfo } from '@/stores/auth-store';
import { makeUser, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

async function fillIn(email: string, password: string) {
  await userEvent.type(screen.getByLabelText('Email Address'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('LoginPage', () => {
  it("shows 'Daxil Olun' with an email field, a masked password and a register link keeping the redirect", async () => {
    renderApp('/login?redirect=/placeorder');
    expect(await screen.findByRole('heading', { name: 'Daxil Olun' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register?redirect=/placeorder');
  });

  it('links new users to /register?redirect=/ by default', async () => {
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register?redirect=/');
  });

  it("stores the returned user as 'userInfo' and goes to the redirect target", async () => {
    const user = makeUser();
    const { sent } = mockApi({ 'POST /api/users/login': user });
    const { router } = renderApp('/login?redirect=/placeorder');
    await screen.findByRole('heading', { name: 'Daxil Olun' });
    await fillIn('alice@example.com', 'secret123');

    await waitFor(() => expect(router.location.pathname).toBe('/placeorder'));
    expect(sent('POST /api/users/login')[0]?.body).toEqual({ email: 'alice@example.com', password: 'secret123' });
    expect(JSON.parse(window.localStorage.getItem('userInfo') ?? 'null')).toEqual(user);
    expect(getUserInfo()).toEqual(user);
  });

  it("shows the server's message in an error toast when signing in fails", async () => {
    mockApi({ 'POST /api/users/login': reply(401, { message: 'Invalid email or password' }) });
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Daxil Olun' });
    await fillIn('alice@example.com', 'wrong-pass');

    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(router.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('userInfo')).toBeNull();
  });

  it('offers the passkey first when the account has one, with the code field beside it; a closed prompt says so', async () => {
    const challenge = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', allowCredentials: [{ id: 'a2V5', type: 'public-key' }], userVerification: 'preferred' };
    const { sent } = mockApi({
      'POST /api/users/login': reply(401, { message: 'Confirm with your passkey, or enter one of your recovery codes.', twoFactorRequired: true, totp: false, passkey: challenge }),
    });
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Daxil Olun' });
    await fillIn('grace@example.com', 'grace-password-1');
    const usePasskey = await screen.findByRole('button', { name: 'Use your passkey' });
    expect(screen.getByLabelText('Authentication code')).toBeInTheDocument();
    // This browser (jsdom) has no WebAuthn: the prompt fails, and the user hears why.
    await userEvent.click(usePasskey);
    await waitFor(() => expect(sent('POST /api/users/login')).toHaveLength(2));
    expect(sent('POST /api/users/login')[1]?.body).toEqual({ email: 'grace@example.com', password: 'grace-password-1' });
    expect(await screen.findByText(/WebAuthn|passkey/i, { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    expect(getUserInfo()).toBeNull();
  });

  it('sends a signed-in user on to the redirect target', async () => {
    signIn();
    const { router } = renderApp('/login?redirect=/placeorder');
    await waitFor(() => expect(router.location.pathname).toBe('/placeorder'));
  });

  it('sends a signed-in user home when there is no redirect, and ignores off-site targets', async () => {
    signIn();
    mockApi({ 'GET /api/products': [] });
    const { router } = renderApp('/login?redirect=//evil.example.com');
    expect(await screen.findByRole('heading', { name: 'Available Packages :' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/');
  });
});
