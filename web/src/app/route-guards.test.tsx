import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser, signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('route guards', () => {
  it.each(['/placeorder', '/order/o1', '/order/o1/purchased', '/profile', '/profile/cashout'])(
    'sends a guest from %s to /login with a redirect back',
    async (path) => {
      const { router } = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Daxil Olun' })).toBeInTheDocument();
      expect(router.location.pathname).toBe('/login');
      expect(new URLSearchParams(router.location.search).get('redirect')).toBe(path);
    },
  );

  it.each(['/admin/orderlist', '/admin/productlist', '/admin/products/p1/edit', '/admin/userlist', '/admin/user/u1/edit'])(
    'sends a signed-in non-admin from %s to /login',
    async (path) => {
      signIn({ isAdmin: false });
      const { router } = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Daxil Olun' })).toBeInTheDocument();
      expect(router.location.pathname).toBe('/login');
      expect(screen.getByText(/who is not an admin/)).toBeInTheDocument();
    },
  );

  it('lets the non-admin sign in as an admin and come back to the admin screen', async () => {
    signIn({ isAdmin: false });
    mockApi({
      'POST /api/users/login': makeUser({ _id: 'a1', name: 'Ada Admin', isAdmin: true }),
      'GET /api/users': [],
    });
    const { router } = renderApp('/admin/userlist');
    await userEvent.type(await screen.findByLabelText('Email Address'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { name: 'User List' })).toBeInTheDocument();
    await waitFor(() => expect(router.location.pathname).toBe('/admin/userlist'));
  });
});
