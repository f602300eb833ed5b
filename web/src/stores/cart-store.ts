import { useSyncExternalStore } from 'react';
import { centsToString, toCents } from '@shop/core/contract';
import { createLocalStorageStore } from '@/lib/local-storage-store';

export const CART_STORAGE_KEY = 'cart';

/** A cart line: the product's fields plus the chosen quantity. */
export type CartItem = {
  _id: string;
  name: string;
  image: string;
  price: number;
  countInStock: number;
  qty: number;
  [field: string]: unknown;
};

export type Cart = {
  cartItems: CartItem[];
  /** Sum of price x qty as a 2-decimal string. */
  itemsPrice: string;
  /** Equal to itemsPrice (no shipping or tax). */
  totalPrice: string;
};

export const emptyCart: Cart = { cartItems: [], itemsPrice: '0.00', totalPrice: '0.00' };

function isCartItem(value: unknown): value is CartItem {
  if (!value || typeof value !== 'object') return false;
  const item = value as Record<string, unknown>;
  return typeof item._id === 'string' && Number.isFinite(Number(item.qty));
}

function lineCents(item: CartItem): bigint {
  try {
    return toCents(item.price) * BigInt(Math.trunc(item.qty));
  } catch {
    return 0n;
  }
}

/** Sums in integer cents so the totals never pick up float noise (3 x 0.1 is '0.30'). */
export function computeCartTotals(cartItems: CartItem[]): Pick<Cart, 'itemsPrice' | 'totalPrice'> {
  const cents = cartItems.reduce((sum, item) => sum + lineCents(item), 0n);
  const itemsPrice = centsToString(cents);
  return { itemsPrice, totalPrice: itemsPrice };
}

function parseCart(value: unknown): Cart | null {
  if (!value || typeof value !== 'object') return null;
  const raw = (value as { cartItems?: unknown }).cartItems;
  const cartItems = Array.isArray(raw)
    ? raw.filter(isCartItem).map((item) => ({ ...item, qty: Number(item.qty) }))
    : [];
  return { cartItems, ...computeCartTotals(cartItems) };
}

const store = createLocalStorageStore<Cart>(CART_STORAGE_KEY, parseCart, emptyCart);

function save(cartItems: CartItem[]): void {
  store.set({ cartItems, ...computeCartTotals(cartItems) });
}

export const getCart = store.get;

/** Adds a line, or replaces the line with the same _id (SPEC.md: it does not add up). */
export function addToCart(item: CartItem): void {
  const lines = getCart().cartItems;
  const exists = lines.some((line) => line._id === item._id);
  save(exists ? lines.map((line) => (line._id === item._id ? item : line)) : [...lines, item]);
}

export function removeFromCart(id: string): void {
  save(getCart().cartItems.filter((line) => line._id !== id));
}

export function clearCart(): void {
  save([]);
}

export function useCart(): Cart {
  return useSyncExternalStore(store.subscribe, store.get, store.initial);
}

export function countCartItems(cart: Cart): number {
  return cart.cartItems.reduce((sum, item) => sum + item.qty, 0);
}

/** Total quantity across lines, for the header badge. */
export function useCartCount(): number {
  return countCartItems(useCart());
}
