import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setUserInfo, type UserInfo } from '@/stores/auth-store';
import { addToCart } from '@/stores/cart-store';
import { WAITING_CAP } from '@shop/core/contract';
import { mockApi } from '@/testing/mock-api';
import { renderPage } from '@/testing/render-app';
import { SiteHeader } from './site-header';

const alice: UserInfo = { _id: 'u1', name: 'Alice Buyer', email: 'alice@example.com', isAdmin: false };
const admin: UserInfo = { _id: 'u2', name: 'Ada Admin', email: 'ada@example.com', isAdmin: true };

function storeCart(items: { _id: string; qty: number; price: number }[]) {
  window.localStorage.setItem('cart', JSON.stringify({ cartItems: items, itemsPrice: '0', totalPrice: '0' }));
}

/** The signed-in menus load when a trigger is used; the trigger is there from the start. */
function menuButton(name: string) {
  return screen.getByRole('button', { name });
}

describe('SiteHeader', () => {
  it('links the brand home', () => {
    renderPage(<SiteHeader />);
    expect(screen.getByRole('link', { name: /eth shop/i })).toHaveAttribute('href', '/');
  });

  it("offers 'Enter' to /login and no user or admin menu when signed out", () => {
    renderPage(<SiteHeader />);
    expect(screen.getByRole('link', { name: 'Enter' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: /admin/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Log Out' })).not.toBeInTheDocument();
  });

  it('shows the signed-in user menu from localStorage, without an Admin menu for a non-admin', () => {
    window.localStorage.setItem('userInfo', JSON.stringify(alice));
    renderPage(<SiteHeader />);
    expect(screen.getByRole('button', { name: 'Alice Buyer' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Enter' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Admin menu' })).not.toBeInTheDocument();
  });

  it("opens the user menu with 'Profile' and 'Log Out'", async () => {
    setUserInfo(alice);
    renderPage(<SiteHeader />);
    await userEvent.click(menuButton('Alice Buyer'));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(within(menu).getByRole('menuitem', { name: 'Log Out' })).toBeInTheDocument();
  });

  it('opens a menu from the keyboard on the first Enter with its first item focused, and gives focus back to its button on Escape', async () => {
    setUserInfo(alice);
    renderPage(<SiteHeader />);
    const trigger = menuButton('Alice Buyer');
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Profile' })));
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Security' }));
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Log Out' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Alice Buyer' }));
  });

  it("shows an admin's name and an 'Admin' menu, named apart from the user menu, with the admin lists and the queue dashboard", async () => {
    window.localStorage.setItem('userInfo', JSON.stringify(admin));
    renderPage(<SiteHeader />);
    expect(screen.getByRole('button', { name: 'Ada Admin' })).toBeInTheDocument();
    const adminButton = menuButton('Admin menu');
    expect(adminButton).toHaveTextContent('Admin');

    await userEvent.click(adminButton);
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => [item.textContent, item.getAttribute('href')])).toEqual([
      ['Overview', '/admin'],
      ['Order List', '/admin/orderlist'],
      ['User List', '/admin/userlist'],
      ['Product List', '/admin/productlist'],
      ['Cashouts', '/admin/cashouts'],
      ['Payments', '/admin/payments'],
      ['Approvals', '/admin/approvals'],
      ['Reconciliation', '/admin/reconciliation'],
      ['Webhooks', '/admin/webhooks'],
      ['Audit log', '/admin/audit'],
      ['Queues', '/admin/queues'],
    ]);
    expect(screen.getByRole('button', { name: 'Admin menu', hidden: true })).toHaveAttribute('aria-expanded', 'true');
  });

  it('counts what waits for the admin on the Admin menu and on its entries, each leading to what waits', async () => {
    setUserInfo(admin);
    mockApi({ 'GET /api/admin/overview/waiting': { approvals: 2, cashouts: WAITING_CAP } });
    renderPage(<SiteHeader />);
    const adminButton = await screen.findByRole('button', { name: 'Admin menu: 99+ waiting' });
    // The name is what shows ('Admin', '99+') and the words screen readers add around it.
    expect(adminButton).toHaveTextContent('Admin menu: 99+ waiting');
    expect(adminButton).not.toHaveAttribute('aria-label');
    await userEvent.click(adminButton);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Approvals 2 to decide' })).toHaveAttribute('href', '/admin/approvals');
    expect(within(menu).getByRole('menuitem', { name: 'Cashouts 99+ to pay' })).toHaveAttribute('href', '/admin/cashouts?status=REQUESTED%2CNOTIFIED');
  });

  it('shows no count when nothing waits', async () => {
    setUserInfo(admin);
    const { sent } = mockApi({ 'GET /api/admin/overview/waiting': { approvals: 0, cashouts: 0 } });
    renderPage(<SiteHeader />);
    await waitFor(() => expect(sent('GET /api/admin/overview/waiting')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Admin menu' })).toHaveTextContent(/^Admin menu$/);
  });

  it('keeps the Cart link and its count out of the small-screen menu', () => {
    storeCart([{ _id: 'p1', qty: 2, price: 10 }]);
    setUserInfo(alice);
    renderPage(<SiteHeader />);
    const cart = screen.getByRole('link', { name: /cart/i });
    expect(cart).toHaveTextContent('Cart2');
    const menu = document.getElementById(screen.getByRole('button', { name: 'Open menu' }).getAttribute('aria-controls')!);
    expect(menu).toContainElement(screen.getByRole('button', { name: 'Alice Buyer' }));
    expect(menu).not.toContainElement(cart);
  });

  it('shows no badge on the Cart link when the cart is empty', () => {
    renderPage(<SiteHeader />);
    expect(screen.getByRole('link', { name: 'Cart' })).toHaveAttribute('href', '/cart');
  });

  it('badges the Cart link with the total quantity across lines', () => {
    storeCart([
      { _id: 'p1', qty: 2, price: 10 },
      { _id: 'p2', qty: 3, price: 5 },
    ]);
    renderPage(<SiteHeader />);
    const cart = screen.getByRole('link', { name: /cart/i });
    expect(cart).toHaveTextContent('Cart5');
  });

  it('updates the badge when the cart changes', () => {
    storeCart([{ _id: 'p1', qty: 1, price: 10 }]);
    renderPage(<SiteHeader />);
    expect(screen.getByRole('link', { name: /cart/i })).toHaveTextContent('Cart1');

    act(() => addToCart({ _id: 'p2', name: 'Gold', image: '', price: 20, countInStock: 9, qty: 4 }));
    expect(screen.getByRole('link', { name: /cart/i })).toHaveTextContent('Cart5');
  });
});
