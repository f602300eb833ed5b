import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProduct, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const product = makeProduct({ _id: 'p1', name: 'Gold Package', price: 249.5, dailyCredit: 6, countInStock: 3 });

describe('ProductEditPage', () => {
  it('starts from the stored package and offers the seven fields (the term too), Update and Go Back', async () => {
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
    expect(screen.getByLabelText('Term (days)')).toHaveValue(30);
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
    await waitFor(() => expect(router.location.pathname).toBe('/admin/productlist'));
    expect(sent('PUT /api/products/p1')[0]?.body).toEqual({
      productId: 'p1',
      name: 'Gold Package',
      price: '199.99',
      image: '/uploads/new-gold.png',
      dailyCredit: '6',
      description: product.description,
      countInStock: '3',
      loadedCountInStock: 3,
      durationDays: '30',
    });
  });

  it('sets the term, says what the package pays in all as the numbers change (in exact cents), and saves the term', async () => {
    signIn({ isAdmin: true });
    const { sent } = mockApi({
      'GET /api/admin/products/p1': makeProduct({ ...product, dailyCredit: 1.5, durationDays: 30 }),
      'PUT /api/products/p1': (request: { body: unknown }) => ({ ...product, ...(request.body as object) }),
      'GET /api/admin/products': [product],
    });
    renderApp('/admin/products/p1/edit');
    const term = await screen.findByLabelText('Term (days)');
    const pays = screen.getByTestId('package-pays');
    expect(pays).toHaveTextContent('USD $1.50 a day for 30 days: USD $45.00 in all');
    // The line is read with the fields it sums up.
    expect(term).toHaveAccessibleDescription(/USD \$1\.50 a day for 30 days: USD \$45\.00 in all/);
    expect(screen.getByLabelText('Daily Bonus')).toHaveAccessibleDescription(/USD \$45\.00 in all/);

    // 0.1 a day for 3 days is 0.30, never 0.30000000000000004.
    const credit = screen.getByLabelText('Daily Bonus');
    await userEvent.clear(credit);
    await userEvent.type(credit, '0.1');
    await userEvent.clear(term);
    await userEvent.type(term, '3');
    expect(pays).toHaveTextContent('USD $0.10 a day for 3 days: USD $0.30 in all');

    // The api's bounds (1 to 3650 whole days), said before anything is sent.
    for (const [typed, message] of [['0', 'Term (days) must be at least 1'], ['3651', 'Term (days) must be at most 3650'], ['2.5', 'Term (days) must be a whole number']] as const) {
      await userEvent.clear(term);
      await userEvent.type(term, typed);
      expect(pays).toHaveTextContent(message);
    }
    expect(term).toHaveAttribute('min', '1');
    expect(term).toHaveAttribute('max', '3650');

    await userEvent.clear(term);
    await userEvent.type(term, '90');
    expect(pays).toHaveTextContent('USD $0.10 a day for 90 days: USD $9.00 in all');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Product updated')).toBeInTheDocument();
    expect(sent('PUT /api/products/p1')[0]?.body).toMatchObject({ dailyCredit: '0.1', durationDays: '90' });
  }, 20_000);

  it('says what the numbers pay over the term, and that a change giving more waits for a second admin', async () => {
    signIn({ isAdmin: true });
    const { sent } = mockApi({
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
    // A longer term pays more too.
    await userEvent.clear(credit);
    await userEvent.type(credit, '6');
    expect(note).not.toHaveTextContent('At these numbers');
    const term = screen.getByLabelText('Term (days)');
    await userEvent.clear(term);
    await userEvent.type(term, '42');
    expect(note).toHaveTextContent('At these numbers it pays USD $252.00 over its 42-day term for USD $249.50.');
    expect(note).toHaveTextContent('lengthening its term');
    // Why, for the second admin who approves it.
    await userEvent.type(screen.getByLabelText('Reason for a second admin'), 'A 42-day winter offer');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Saved. The changes to the price, daily bonus, term or stock wait for a second admin.')).toBeInTheDocument();
    expect(sent('PUT /api/products/p1')[0]?.body).toMatchObject({ durationDays: '42', approvalReason: 'A 42-day winter offer' });
    await waitFor(() => expect(router.location.pathname).toBe('/admin/productlist'));
  });
});
