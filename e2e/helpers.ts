import type { Page } from 'playwright-core';
import type { Shop } from './shop.ts';

/** Signs in through the login form, as a person would. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Registers through the api (for users a journey needs but does not watch sign up). */
export async function registerViaApi(shop: Shop, user: { email: string; password: string; name: string; referredBy?: string }) {
  const res = await fetch(`${shop.baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { _id: string; referralCode: string };
}

/** Places an order from the signed-in page's session (its cookies), returning its id. */
export async function placeOrderViaApi(page: Page, productName: string, qty = 1): Promise<string> {
  const products = (await (await page.request.get('/api/products')).json()) as { _id: string; name: string; price: number }[];
  const product = products.find((p) => p.name === productName);
  if (!product) throw new Error(`no product ${productName}`);
  const total = (Math.round(product.price * 100) * qty) / 100;
  const res = await page.request.post('/api/orders', { data: { orderedItems: [{ _id: product._id, qty }], itemsPrice: total, totalPrice: total } });
  if (res.status() !== 201) throw new Error(`order failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { _id: string })._id;
}
