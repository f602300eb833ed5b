import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

async function fillIn() {
  await userEvent.type(screen.getByLabelText('Email Address'), 'bob@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'secret123');
  await userEvent.type(screen.getByLabelText('Name'), 'Bob');
}

describe('RegisterPage', () => {
  it("shows 'Registration:' with the four fields and 'Have a account?' linking back with the redirect", async () => {
    renderApp('/register?redirect=/placeorder');
    expect(await screen.findByRole('heading', { name: 'Registration:' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    expect(screen.getByLabelText('Referral Code')).toHaveValue('');
    expect(screen.getByText(/Have a account\?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login?redirect=/placeorder');
  });

  it('pre-fills the referral code from ?ref=', async () => {
    renderApp('/register?ref=ALICE7');
    expect(await screen.findByLabelText('Referral Code')).toHaveValue('ALICE7');
  });

  it("keeps a referral link's code from any page (the latest link wins), fills it in wherever registration starts and names the referrer", async () => {
    const { sent } = mockApi({ 'GET /api/users/referrer': (request: { path: string }) => ({ name: request.path.endsWith('ALICE7') ? 'Alice Referrer' : 'Someone Else' }) });
    renderApp('/cart?ref=OLDCODE1');
    await screen.findByRole('heading', { name: 'Sum : 0 packet' });
    cleanup();
    renderApp('/cart?ref=alice7');
    await screen.findByRole('heading', { name: 'Sum : 0 packet' });
    cleanup();

    // Registration started later from the sign-in page: no ?ref= in its address.
    renderApp('/register?redirect=/placeorder');
    expect(await screen.findByLabelText('Referral Code')).toHaveValue('ALICE7');
    expect(await screen.findByText('You were invited by Alice Referrer')).toBeInTheDocument();
    expect(sent('GET /api/users/referrer').map((r) => r.path)).toEqual(['/api/users/referrer?referralCode=ALICE7']);
  });

  it('says a code is unknown, and names the owner of a code typed in', async () => {
    mockApi({
      'GET /api/users/referrer': (request: { path: string }) =>
        request.path.endsWith('BOB9') ? { name: 'Bob Builder' } : reply(404, { message: 'Unknown referral code' }),
    });
    renderApp('/register?ref=NOPE12');
    expect(await screen.findByText('Unknown referral code')).toBeInTheDocument();
    const field = screen.getByLabelText('Referral Code');
    await userEvent.clear(field);
    await userEvent.type(field, 'bob9');
    expect(await screen.findByText('You were invited by Bob Builder')).toBeInTheDocument();
    expect(screen.queryByText('Unknown referral code')).not.toBeInTheDocument();
  });

  it("disables 'Register' with a spinner while the request runs, then stores the user and redirects", async () => {
    const user = makeUser({ _id: 'u9', name: 'Bob', email: 'bob@example.com' });
    let release: () => void = () => {};
    const { sent } = mockApi({
      'POST /api/users': () =>
        new Promise((resolve) => {
          release = () => resolve(reply(201, user));
        }),
    });
    const { router } = renderApp('/register?ref=ALICE7&redirect=/placeorder');
    await screen.findByRole('heading', { name: 'Registration:' });
    await fillIn();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    const button = screen.getByRole('button', { name: 'Register' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(within(button).getByRole('status', { hidden: true })).toBeInTheDocument();
    expect(sent('POST /api/users')[0]?.body).toEqual({
      email: 'bob@example.com',
      password: 'secret123',
      name: 'Bob',
      referredBy: 'ALICE7',
    });

    release();
    await waitFor(() => expect(router.location.pathname).toBe('/placeorder'));
    expect(JSON.parse(window.localStorage.getItem('userInfo') ?? 'null')).toEqual(user);
    // Used: a later registration on this device starts without it.
    expect(window.localStorage.getItem('referral')).toBeNull();
  });

  it('sends no referredBy when the code is empty, and toasts the server message on failure', async () => {
    const { sent } = mockApi({ 'POST /api/users': reply(409, { message: 'Email is already registered' }) });
    renderApp('/register');
    await screen.findByRole('heading', { name: 'Registration:' });
    await fillIn();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('Email is already registered')).toBeInTheDocument();
    expect(sent('POST /api/users')[0]?.body).toEqual({ email: 'bob@example.com', password: 'secret123', name: 'Bob' });
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });
});
