import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { makeProduct, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderRoutes } from '@/testing/render-app';

const long = 'A long description that runs past thirty characters';
const exact = 'Exactly thirty characters long';

const products = [
  makeProduct({ _id: 'p1', name: 'Gold Package', price: 249.5, dailyCredit: 6, description: long }),
  makeProduct({ _id: 'p2', name: 'Silver Package', price: 20, dailyCredit: 0.5, description: exact }),
];

describe('ProductListPage', () => {
  it('lists ID, NAME, PRICE, Daily Credit and the description cut to 30 characters', async () => {
    signIn({ isAdmin: true });
    mockApi({ 'GET /api/products': products });
    renderRoutes(routes, '/admin/productlist');

    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 5)).toEqual(['ID', 'NAME', 'PRICE', 'Daily Credit', 'Description']);
    expect(exact).toHaveLength(30);
    expect(within(table).getByText(`${long.slice(0, 30)}...`)).toBeInTheDocument();
    expect(within(table).getByText(exact)).toBeInTheDocument();
    expect(within(table).getByText('USD $0.50')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Gold Package' })).toHaveAttribute('href', '/admin/products/p1/edit');
  });

  it("creates a package with 'Product created!' and opens its edit page", async () => {
    signIn({ isAdmin: true });
    const created = makeProduct({ _id: 'p9', name: 'Sample name' });
    mockApi({ 'GET /api/products': products, 'POST /api/products': reply(201, created), 'GET /api/products/p9': created });
    const { router } = renderRoutes(routes, '/admin/productlist');

    await userEvent.click(await screen.findByRole('button', { name: 'Create Package' }));
    expect(await screen.findByText('Product created!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/products/p9/edit'));
  });

  it("reports 'Failed to create Product.'", async () => {
    signIn({ isAdmin: true });
    mockApi({ 'GET /api/products': products, 'POST /api/products': reply(500, { message: 'boom' }) });
    renderRoutes(routes, '/admin/productlist');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Package' }));
    expect(await screen.findByText('Failed to create Product.')).toBeInTheDocument();
  });

  it("deletes with 'Product deleted!' and reports 'Failed to delete Product.'", async () => {
    signIn({ isAdmin: true });
    const { sent } = mockApi({
      'GET /api/products': products,
      'DELETE /api/products/p1/delete': { message: 'Product removed' },
      'DELETE /api/products/p2/delete': reply(409, { message: 'In use' }),
    });
    renderRoutes(routes, '/admin/productlist');

    await userEvent.click(await screen.findByRole('button', { name: 'Delete Gold Package' }));
    expect(await screen.findByText('Product deleted!')).toBeInTheDocument();
    expect(sent('DELETE /api/products/p1/delete')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Silver Package' }));
    expect(await screen.findByText('Failed to delete Product.')).toBeInTheDocument();
  });
});
