import { describe, expect, it } from 'vitest';
import { addToCart, clearCart, getCart, removeFromCart, type CartItem } from './cart-store';

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
