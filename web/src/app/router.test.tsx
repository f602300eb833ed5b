import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/testing/render-app';
import { serverNavigation } from './routes/server-page';

describe('routes', () => {
  it('renders a 404 page inside the layout for an unknown address', async () => {
    const { router } = renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cart' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/no/such/page');
  });

  it('serves the home page at /', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('[]', { status: 200 })));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Available Packages :' })).toBeInTheDocument();
  });

  it('gives each screen its own title and meta description', async () => {
    const description = document.createElement('meta');
    description.name = 'description';
    document.head.append(description);
    try {
      vi.stubGlobal('fetch', vi.fn(async () => new Response('[]', { status: 200 })));
      const { router } = renderApp('/');
      await screen.findByRole('heading', { name: 'Available Packages :' });
      await vi.waitFor(() => expect(description.content).toMatch(/paid in ETH/));
      expect(document.title).toBe('ETH Shop');
      const home = description.content;
      await router.navigate('/cart');
      await vi.waitFor(() => expect(document.title).toBe('Cart | ETH Shop'));
      expect(description.content).not.toBe(home);
      await router.navigate('/login');
      await vi.waitFor(() => expect(document.title).toBe('Sign in | ETH Shop'));
    } finally {
      description.remove();
    }
  });

  it('sends a signed-out visitor of a signed-in screen to /login with a way back', async () => {
    const { router } = renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'Daxil Olun' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.location.search).get('redirect')).toBe('/profile');
  });

  it('sends a signed-in non-admin away from admin screens to /login', async () => {
    window.localStorage.setItem(
      'userInfo',
      JSON.stringify({ _id: 'u1', name: 'Alice', email: 'a@example.com', isAdmin: false }),
    );
    const { router } = renderApp('/admin/userlist');
    expect(await screen.findByRole('heading', { name: 'Daxil Olun' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/login');
  });

  it('lets an admin open the admin screens', async () => {
    window.localStorage.setItem(
      'userInfo',
      JSON.stringify({ _id: 'u2', name: 'Ada', email: 'ada@example.com', isAdmin: true }),
    );
    const { router } = renderApp('/admin/userlist');
    expect(await screen.findByRole('heading', { name: 'User List' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/admin/userlist');
  });

  it('loads the queue dashboard from the server instead of showing the 404 page', async () => {
    const replace = vi.spyOn(serverNavigation, 'replace').mockImplementation(() => {});
    renderApp('/admin/queues?x=1');
    await vi.waitFor(() => expect(replace).toHaveBeenCalledWith('/admin/queues?x=1'));
    expect(screen.queryByRole('heading', { name: 'Page not found' })).not.toBeInTheDocument();
  });
});
