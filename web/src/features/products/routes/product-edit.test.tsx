import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProduct, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const product = makeProduct({ _id: 'p1', name: 'Gold Package', price: 249.5, dailyCredit: 6, countInStock: 3 });

describe('ProductEditPage', () => {
  it('starts from the stored package and offers the six fields, Update and Go Back', async () => {
    signIn({ isAdmin: true });
    mockApi({ 'GET /api/admin/products/p1': product });
    renderApp('/admin/products/p1/edit');

    expect(await screen.findByLabelText('Name')).toHaveValue('Gold Package');
    expect(screen.getByLabelText('Price')).toHaveAttribute('type', 'number');
    expect(screen.getByLabelText('Price')).toHaveValue(249.5);
    expect(screen.getByLabelText('Image')).toHaveValue('/images/gold.svg');
    expect(screen.getByLabelText('Upload image file')).toHaveAttribute('type', 'file');
    expect(screen.getByLabelText('Daily Bonus')).toHaveValue(6);
    expect(screen.getByLabelText('Count In Stock')).toHaveAttribute('type', 'number');
    expect(screen.getByLabelText('Count In Stock')).toHaveValue(3);
    expect(screen.getByLabelText('Description')).toHaveValue(product.description);
    expect(screen.getByRole('button', { name: 'Update' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Back' })).toHaveAttribute('href', '/admin/productlist');
  });

  it("uploads a file, sets the image from the reply, saves with 'Product updated' and returns to the list", async () => {
    signIn({ isAdmin: true });
    const { sent } = mockApi({
      'GET /api/admin/products/p1': product,
      'POST /api/uploads': { message: 'Image uploaded', image: '/uploads/new-gold.png' },
      'PUT /api/products/p1': (request: { body: unknown }) => ({ ...product, ...(request.body as object) }),
      'GET /api/admin/products': [product],
    });
    const { router } = renderApp('/admin/products/p1/edit');

    const file = new File(['png'], 'gold.png', { type: 'image/png' });
    await userEvent.upload(await screen.findByLabelText('Upload image file'), file);
    await waitFor(() => expect(screen.getByLabelText('Image')).toHaveValue('/uploads/new-gold.png'));
    const form = sent('POST /api/uploads')[0]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('image') as File).name).toBe('gold.png');

    const price = screen.getByLabelText('Price');
    await userEvent.clear(price);
    await userEvent.type(price, '199.99');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Product updated')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/productlist'));
    expect(sent('PUT /api/products/p1')[0]?.body).toEqual({
      productId: 'p1',
      name: 'Gold Package',
      price: '199.99',
      image: '/uploads/new-gold.png',
      dailyCredit: '6',
      description: product.description,
      countInStock: '3',
      loadedCountInStock: 3,
    });
  });

  it('says what the numbers pay over the term, and that a change giving more waits for a second admin', async () => {
    signIn({ isAdmin: true });
    mockApi({
      'GET /api/admin/products/p1': product,
      'PUT /api/products/p1': reply(202, { ...product, pendingApproval: { _id: 'ap1' } }),
      'GET /api/admin/products': [product],
    });
    const { router } = renderApp('/admin/products/p1/edit');
    const note = await screen.findByTestId('second-admin-note');
    // $6 a day over 30 days for $249.50: it pays less than it costs.
    expect(note).not.toHaveTextContent('At these numbers');
    expect(note).toHaveTextContent('waits for a second admin (Admin > Approvals)');
    const credit = screen.getByLabelText('Daily Bonus');
    await userEvent.clear(credit);
    await userEvent.type(credit, '499');
    expect(note).toHaveTextContent('At these numbers it pays USD $14970.00 over its 30-day term for USD $249.50.');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Saved. The changes to the price, daily bonus or stock wait for a second admin.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/productlist'));
  });
});
