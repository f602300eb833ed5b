import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProduct, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const long = 'A long description that runs past thirty characters';
const exact = 'Exactly thirty characters long';

const products = [
  makeProduct({ _id: 'p1', name: 'Gold Package', price: 249.5, dailyCredit: 6, description: long }),
  makeProduct({ _id: 'p2', name: 'Silver Package', price: 20, dailyCredit: 0.5, description: exact, publishedAt: null }),
];

describe('ProductListPage', () => {
  it('lists ID, NAME, PRICE, Daily Credit and the description cut to 30 characters', async () => {
    signIn({ isAdmin: true });
    mockApi({ 'GET /api/admin/products': products });
    renderApp('/admin/productlist');

    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 5)).toEqual(['ID', 'NAME', 'PRICE', 'Daily Credit', 'Description']);
    expect(exact).toHaveLength(30);
    expect(within(table).getByText(`${long.slice(0, 30)}...`)).toBeInTheDocument();
    expect(within(table).getByText(exact)).toBeInTheDocument();
    expect(within(table).getByText('USD $0.50')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Gold Package' })).toHaveAttribute('href', '/admin/products/p1/edit');
    // Drafts are listed with a badge; the storefront does not show them.
    const [, gold, silver] = within(table).getAllByRole('row') as HTMLElement[];
    expect(within(gold!).getByText('Published')).toBeInTheDocument();
    expect(within(silver!).getByText('Draft')).toBeInTheDocument();
  });

  it('publishes a draft and unpublishes a package on sale', async () => {
    signIn({ isAdmin: true });
    const { sent } = mockApi({
      'GET /api/admin/products': products,
      'POST /api/admin/products/p2/publish': { ...products[1], publishedAt: '2026-02-02T00:00:00.000Z' },
      'POST /api/admin/products/p1/publish': { ...products[0], publishedAt: null },
    });
    renderApp('/admin/productlist');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish Silver Package' }));
    expect(await screen.findByText('Silver Package is on sale.')).toBeInTheDocument();
    expect(sent('POST /api/admin/products/p2/publish')[0]?.body).toEqual({ published: true });
    await userEvent.click(screen.getByRole('button', { name: 'Unpublish Gold Package' }));
    expect(await screen.findByText('Gold Package is hidden from the shop.')).toBeInTheDocument();
    expect(sent('POST /api/admin/products/p1/publish')[0]?.body).toEqual({ published: false });
  });

  it('asks for a reason before publishing a package that waits for a second admin, and says it waits', async () => {
    signIn({ isAdmin: true });
    const penny = makeProduct({ _id: 'p3', name: 'Penny Package', price: 0.01, dailyCredit: 499, publishedAt: null, publishWaits: true });
    const { sent } = mockApi({
      'GET /api/admin/products': [...products, penny],
      'POST /api/admin/products/p3/publish': reply(202, { ...penny, pendingApproval: { _id: 'ap1' } }),
    });
    renderApp('/admin/productlist');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish Penny Package' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Penny Package?' });
    expect(dialog).toHaveTextContent('It pays USD $14970.00 over its 30-day term for USD $0.01, so it goes on sale once a second admin approves.');
    expect(sent('POST /api/admin/products/p3/publish')).toHaveLength(0);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason for a second admin' }), ' Launch promotion, agreed with finance ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ask to publish' }));
    expect(await screen.findByText('Penny Package pays more than it costs. It goes on sale once a second admin approves.')).toBeInTheDocument();
    expect(sent('POST /api/admin/products/p3/publish')[0]?.body).toEqual({ published: true, approvalReason: 'Launch promotion, agreed with finance' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("creates a package with 'Product created!' and opens its edit page", async () => {
    signIn({ isAdmin: true });
    const created = makeProduct({ _id: 'p9', name: 'Sample name' });
    mockApi({ 'GET /api/admin/products': products, 'POST /api/products': reply(201, created), 'GET /api/admin/products/p9': created });
    const { router } = renderApp('/admin/productlist');

    await userEvent.click(await screen.findByRole('button', { name: 'Create Package' }));
    expect(await screen.findByText('Product created!')).toBeInTheDocument();
    await waitFor(() => expect(router.location.pathname).toBe('/admin/products/p9/edit'));
  });

  it("reports 'Failed to create Product.'", async () => {
    signIn({ isAdmin: true });
    mockApi({ 'GET /api/admin/products': products, 'POST /api/products': reply(500, { message: 'boom' }) });
    renderApp('/admin/productlist');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Package' }));
    expect(await screen.findByText('Failed to create Product.')).toBeInTheDocument();
  });

  it("deletes with 'Product deleted!' and reports 'Failed to delete Product.'", async () => {
    signIn({ isAdmin: true });
    const { sent } = mockApi({
      'GET /api/admin/products': products,
      'DELETE /api/products/p1/delete': { message: 'Product removed' },
      'DELETE /api/products/p2/delete': reply(409, { message: 'In use' }),
    });
    renderApp('/admin/productlist');

    // Asks first, naming the package: Cancel deletes nothing.
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Gold Package' }));
    await userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Delete the package Gold Package?' })).getByRole('button', { name: 'Cancel' }));
    expect(sent('DELETE /api/products/p1/delete')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Gold Package' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Product deleted!')).toBeInTheDocument();
    expect(sent('DELETE /api/products/p1/delete')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Silver Package' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete Product.')).toBeInTheDocument();
  });
});
