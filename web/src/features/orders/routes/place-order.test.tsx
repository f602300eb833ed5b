import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addToCart } from '@/stores/cart-store';
import { makeOrder, makeProduct } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderRoutes } from '@/testing/render-app';
import { PlaceOrderPage } from './place-order';

function renderPlaceOrder() {
  return renderRoutes(
    [
      { path: '/placeorder', element: <PlaceOrderPage /> },
      { path: '/order/:id', element: <h1>Pay stub</h1> },
    ],
    '/placeorder',
  );
}

function fillCart() {
  addToCart({ ...makeProduct({ _id: 'p1', name: 'Gold Package', price: 10.5, countInStock: 5 }), qty: 2 });
  addToCart({ ...makeProduct({ _id: 'p2', name: 'Silver Package', image: '/images/silver.svg', price: 0.1, countInStock: 5 }), qty: 3 });
}

const summary = () => screen.getByRole('region', { name: 'Order Summary' });

describe('PlaceOrderPage', () => {
  it("lists each cart line as 'qty x $price = $line total' with the cart total", async () => {
    fillCart();
    renderPlaceOrder();
    expect(await screen.findByRole('heading', { name: 'Order Items' })).toBeInTheDocument();
    const lines = within(screen.getByRole('list', { name: 'Order items' })).getAllByRole('listitem');
    expect(lines).toHaveLength(2);
    const gold = lines[0] as HTMLElement;
    expect(within(gold).getByRole('link', { name: 'Gold Package' })).toHaveAttribute('href', '/product/p1');
    expect(within(gold).getByAltText('Gold Package')).toHaveAttribute('src', '/images/gold.svg');
    expect(within(gold).getByText('2 x $10.50 = $21.00')).toBeInTheDocument();
    expect(within(lines[1] as HTMLElement).getByText('3 x $0.10 = $0.30')).toBeInTheDocument();

    expect(within(summary()).getByRole('heading', { name: 'Order Summary' })).toBeInTheDocument();
    expect(within(summary()).getByText('Total')).toBeInTheDocument();
    expect(within(summary()).getByText('$21.30')).toBeInTheDocument();
  });

  it("posts the cart and goes to /order/{new id}", async () => {
    fillCart();
    const api = mockApi({ 'POST /api/orders': reply(201, makeOrder({ _id: 'o42', isPaid: false, status: 'PENDING_PAYMENT' })) });
    const { router } = renderPlaceOrder();
    await userEvent.click(await screen.findByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(router.location.pathname).toBe('/order/o42'));
    const body = api.sent('POST /api/orders')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ itemsPrice: '21.30', totalPrice: '21.30' });
    expect((body.orderedItems as { _id: string; qty: number }[]).map((l) => [l._id, l.qty])).toEqual([
      ['p1', 2],
      ['p2', 3],
    ]);
  });

  it("shows 'Your cart is empty' and still lets 'Place Order' post, showing the server's 'No order items'", async () => {
    const api = mockApi({ 'POST /api/orders': reply(400, { message: 'No order items' }) });
    renderPlaceOrder();
    expect(await screen.findByText('Your cart is empty')).toBeInTheDocument();
    expect(within(summary()).getByText('$0.00')).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Place Order' });
    expect(button).toBeEnabled();
    await userEvent.click(button);
    expect(await within(summary()).findByText('No order items')).toBeInTheDocument();
    expect(api.sent('POST /api/orders')).toHaveLength(1);
  });

  it("shows the server's 409 message in a red alert and a toast, and stays on the page", async () => {
    fillCart();
    const message = 'Prices have changed: the total is now $25.30. Please review your cart.';
    mockApi({ 'POST /api/orders': reply(409, { message }) });
    const { router } = renderPlaceOrder();
    await userEvent.click(await screen.findByRole('button', { name: 'Place Order' }));
    const alert = await within(summary()).findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(alert.className).toMatch(/destructive/);
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    expect(router.location.pathname).toBe('/placeorder');
  });

  it('shows a spinner in the button while the order is being placed', async () => {
    fillCart();
    let release: () => void = () => undefined;
    mockApi({
      'POST /api/orders': () =>
        new Promise((resolve) => {
          release = () => resolve(reply(201, makeOrder({ _id: 'o7' })));
        }),
    });
    const { router } = renderPlaceOrder();
    await userEvent.click(await screen.findByRole('button', { name: 'Place Order' }));
    const button = screen.getByRole('button', { name: 'Place Order' });
    await waitFor(() => expect(button).toHaveAttribute('aria-busy', 'true'));
    expect(button.querySelector('[data-slot="spinner"]')).not.toBeNull();
    release();
    await waitFor(() => expect(router.location.pathname).toBe('/order/o7'));
  });
});
