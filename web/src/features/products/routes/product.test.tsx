import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getCart } from '@/stores/cart-store';
import { makeProduct } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

describe('ProductPage', () => {
  it('shows the package with its rating, review count, price, status and a count selector', async () => {
    const { sent } = mockApi({ 'GET /api/products/p1': makeProduct({ countInStock: 3 }) });
    renderApp('/product/p1');

    expect(await screen.findByRole('heading', { name: 'Gold Package' })).toBeInTheDocument();
    expect(sent('GET /api/products/p1')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Go Back' })).toHaveAttribute('href', '/');
    expect(screen.getByAltText('Gold Package')).toHaveAttribute('src', '/images/gold.svg');
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeInTheDocument();
    expect(screen.getByText('12 reviews')).toBeInTheDocument();
    expect(screen.getByText('A gold package with a daily credit.')).toBeInTheDocument();
    expect(screen.getByText('USD $249.50')).toBeInTheDocument();
    expect(screen.getByText('Available')).toBeInTheDocument();
    // The package's term and what it credits in all (6.00 a day for 30 days).
    expect(screen.getByText('30 days, from the day it is paid')).toBeInTheDocument();
    expect(screen.getByText('USD $180.00 of credit in all')).toBeInTheDocument();

    const count = screen.getByRole('combobox', { name: 'Count:' });
    expect(within(count).getAllByRole('option').map((o) => o.textContent)).toEqual(['1', '2', '3']);
    expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
  });

  it("offers no count selector and a disabled 'Add to Cart' when out of stock", async () => {
    mockApi({ 'GET /api/products/p1': makeProduct({ countInStock: 0 }) });
    renderApp('/product/p1');

    expect(await screen.findByText('Out of Stock')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Count:' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
  });

  it('adds the chosen count to the cart, replacing an earlier line, and goes to /cart', async () => {
    mockApi({ 'GET /api/products/p1': makeProduct({ countInStock: 5 }) });
    const { router } = renderApp('/product/p1');

    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Count:' }), '4');
    await userEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));

    await waitFor(() => expect(router.location.pathname).toBe('/cart'));
    expect(await screen.findByRole('heading', { name: 'Sum : 4 packet' })).toBeInTheDocument();
    expect(getCart()).toMatchObject({ itemsPrice: '998.00', totalPrice: '998.00' });
    expect(getCart().cartItems).toEqual([expect.objectContaining({ _id: 'p1', qty: 4, price: 249.5 })]);
  });

  it("shows a red 'Error: ' alert with the server's message for an unknown package", async () => {
    mockApi({ 'GET /api/products/nope': reply(404, { message: 'Product not found' }) });
    renderApp('/product/nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Product not found');
  });
});
