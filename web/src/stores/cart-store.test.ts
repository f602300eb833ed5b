import { describe, expect, it } from 'vitest';
import {
  addToCart,
  clearCart,
  computeCartTotals,
  emptyCart,
  getCart,
  removeFromCart,
  type CartItem,
} from './cart-store';

const item = (id: string, price: number, qty: number): CartItem => ({
  _id: id,
  name: id,
  image: '',
  price,
  countInStock: 10,
  qty,
});

describe('cart store', () => {
  it('starts empty when nothing is stored', () => {
    expect(getCart()).toEqual({ cartItems: [], itemsPrice: '0.00', totalPrice: '0.00' });
  });

  it('replaces a line with the same _id instead of adding to it, and keeps 2-decimal totals', () => {
    addToCart(item('a', 0.1, 1));
    addToCart(item('b', 0.2, 1));
    addToCart(item('a', 0.1, 3));

    const cart = getCart();
    expect(cart.cartItems.map((line) => [line._id, line.qty])).toEqual([
      ['a', 3],
      ['b', 1],
    ]);
    expect(cart.itemsPrice).toBe('0.50');
    expect(cart.totalPrice).toBe('0.50');
    expect(JSON.parse(window.localStorage.getItem('cart') ?? '{}')).toMatchObject({ itemsPrice: '0.50' });
  });

  it('removes a line by _id and clears', () => {
    addToCart(item('a', 5, 1));
    addToCart(item('b', 7, 2));
    removeFromCart('a');
    expect(getCart().cartItems.map((line) => line._id)).toEqual(['b']);
    expect(getCart().totalPrice).toBe('14.00');
    clearCart();
    expect(getCart().cartItems).toEqual([]);
  });
});

describe('cart totals and persistence', () => {
  it('totals in exact cents: 3 x 0.1 is 0.30, 1.15 x 3 is 3.45', () => {
    expect(computeCartTotals([item('a', 0.1, 3)])).toEqual({ itemsPrice: '0.30', totalPrice: '0.30' });
    expect(computeCartTotals([item('a', 1.15, 3), item('b', 0.07, 1)]).totalPrice).toBe('3.52');
    expect(computeCartTotals([]).totalPrice).toBe('0.00');
  });

  it("saves {cartItems, itemsPrice, totalPrice} under 'cart' after every change", () => {
    addToCart(item('a', 0.1, 3));
    expect(JSON.parse(window.localStorage.getItem('cart') ?? 'null')).toEqual({
      cartItems: [item('a', 0.1, 3)],
      itemsPrice: '0.30',
      totalPrice: '0.30',
    });
    clearCart();
    expect(JSON.parse(window.localStorage.getItem('cart') ?? 'null')).toEqual({
      cartItems: [],
      itemsPrice: '0.00',
      totalPrice: '0.00',
    });
  });

  it('restores the stored cart at start and recomputes its totals', () => {
    window.localStorage.setItem(
      'cart',
      JSON.stringify({ cartItems: [item('a', 19.99, 2)], itemsPrice: 'stale', totalPrice: 'stale' }),
    );
    expect(getCart()).toEqual({ cartItems: [item('a', 19.99, 2)], itemsPrice: '39.98', totalPrice: '39.98' });
  });

  it('falls back to an empty cart when the stored value is unreadable', () => {
    window.localStorage.setItem('cart', '{not json');
    expect(getCart()).toEqual(emptyCart);
  });
});
