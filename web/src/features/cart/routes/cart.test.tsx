import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addToCart, getCart } from '@/stores/cart-store';
import { makeProduct, signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

function fillCart() {
  addToCart({ ...makeProduct({ _id: 'p1', name: 'Gold Package', price: 0.1, countInStock: 4 }), qty: 3 });
  addToCart({ ...makeProduct({ _id: 'p2', name: 'Silver Package', price: 20, countInStock: 2 }), qty: 2 });
}

describe('CartPage', () => {
  it("shows 'Your basket is Empty' with 'Back to Home Page' and a disabled 'Submit Order'", async () => {
    renderApp('/cart');
    expect(await screen.findByText('Your basket is Empty')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home Page' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('heading', { name: 'Sum : 0 packet' })).toBeInTheDocument();
    expect(screen.getByText('USD $0.00')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Order' })).toBeDisabled();
  });

  it("lists each line and sums 'Sum : N packet' over quantities with a 2-decimal total", async () => {
    fillCart();
    renderApp('/cart');
    const lines = within(await screen.findByRole('list', { name: 'Cart lines' })).getAllByRole('listitem');
    expect(lines).toHaveLength(2);
    const gold = lines[0] as HTMLElement;
    expect(within(gold).getByRole('link', { name: 'Gold Package' })).toHaveAttribute('href', '/product/p1');
    expect(within(gold).getByAltText('Gold Package')).toHaveAttribute('src', '/images/gold.svg');
    expect(within(gold).getByText('USD $0.10')).toBeInTheDocument();

    const select = within(gold).getByRole('combobox', { name: 'Quantity of Gold Package' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['1', '2', '3', '4']);
    expect(select).toHaveValue('3');

    expect(screen.getByRole('heading', { name: 'Sum : 5 packet' })).toBeInTheDocument();
    expect(screen.getByText('USD $40.30')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Order' })).toBeEnabled();
  });

  it('changes a quantity by replacing the line and removes a line with the trash button', async () => {
    fillCart();
    renderApp('/cart');
    const select = await screen.findByRole('combobox', { name: 'Quantity of Gold Package' });
    await userEvent.selectOptions(select, '1');
    expect(getCart().cartItems.map((l) => [l._id, l.qty])).toEqual([
      ['p1', 1],
      ['p2', 2],
    ]);
    expect(screen.getByRole('heading', { name: 'Sum : 3 packet' })).toBeInTheDocument();
    expect(screen.getByText('USD $40.10')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Remove Silver Package' }));
    expect(getCart().cartItems.map((l) => l._id)).toEqual(['p1']);
    expect(screen.getByRole('heading', { name: 'Sum : 1 packet' })).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('cart') ?? '{}')).toMatchObject({ totalPrice: '0.10' });
  });

  it("'Submit Order' goes to /login?redirect=/placeorder for a guest", async () => {
    fillCart();
    const { router } = renderApp('/cart');
    await userEvent.click(await screen.findByRole('button', { name: 'Submit Order' }));
    expect(await screen.findByRole('heading', { name: 'Daxil Olun' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/login');
    expect(router.location.search).toBe('?redirect=/placeorder');
  });

  it("'Submit Order' takes a signed-in user on to /placeorder", async () => {
    signIn();
    fillCart();
    const { router } = renderApp('/cart');
    await userEvent.click(await screen.findByRole('button', { name: 'Submit Order' }));
    await waitFor(() => expect(router.location.pathname).toBe('/placeorder'));
  });
});
