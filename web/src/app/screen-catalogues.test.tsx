import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { startLocale, whenMissing } from '@/i18n/i18n';
import { makeProduct } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { addToCart } from '@/stores/cart-store';
import { pages } from './pages';

/**
 * Each public screen draws with only the catalogues the router loads for it (its area, and
 * `shop` with the app): a word a public screen takes from a signed-in area (`account`,
 * `admin`) would show as its key to a visitor, and no other test sees it, since the tests'
 * setup loads every area in English. Drawn in Russian, which nothing else in this file
 * loads: the screens without an area of their own come first, before `auth` is loaded.
 */
const missed: string[] = [];
const gold = makeProduct({ _id: 'p1', name: 'Gold Package', countInStock: 3 });

/** The address that opens a screen, with what it needs to draw its content. */
function addressOf(path: string): string {
  if (path === 'product/:id') return '/product/p1';
  if (path === 'reset-password' || path === 'cashout/cancel') return `/${path}?token=tok3n-from-the-e-mail-0123456789`;
  return `/${path}`;
}

const publicScreens = pages.filter((page) => page.access === 'public').sort((a, b) => Number(Boolean(a.catalogue)) - Number(Boolean(b.catalogue)));

describe("the public screens' words", () => {
  beforeAll(async () => {
    whenMissing((key) => {
      missed.push(key);
      return key;
    });
    await startLocale('ru');
  });

  it('covers every public screen, and none of them has an area beyond auth', () => {
    expect(publicScreens.map((page) => page.path)).toEqual(expect.arrayContaining(['', 'product/:id', 'cart', 'login', 'register']));
    expect(publicScreens.filter((page) => page.catalogue && page.catalogue !== 'auth')).toEqual([]);
  });

  it.each(publicScreens.map((page) => [page.path || '(home)', page] as const))('%s draws only words of its catalogues', async (_name, page) => {
    mockApi({ 'GET /api/products': [gold], 'GET /api/products/p1': gold });
    if (page.path === 'cart') addToCart({ ...gold, qty: 2 });
    delete document.documentElement.dataset.app;
    missed.length = 0;
    renderApp(addressOf(page.path));
    // The screen itself has drawn (the router's spinner is gone, the page marked running),
    // with the package where it shows one.
    await waitFor(() => expect(document.documentElement.dataset.app).toBe('running'));
    if (page.path === '' || page.path === 'product/:id' || page.path === 'cart') expect((await screen.findAllByText('Gold Package')).length).toBeGreaterThan(0);
    expect(missed).toEqual([]);
  });
});
