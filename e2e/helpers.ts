import jsQR from 'jsqr';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { answerProblem } from '@shop/core/contract/operation-checks';
import type { Shop } from './shop.ts';

/**
 * Checks one api answer against the published document (core/src/contract/operations.ts,
 * the source of GET /api/openapi.json) and throws, failing the journey, on a mismatch.
 */
export function expectDocumentedAnswer(method: string, url: string, status: number, body: unknown, contentType = 'application/json'): void {
  const problem = answerProblem(method, url, status, body, contentType);
  if (problem) throw new Error(problem);
}

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
  const body: unknown = await res.json();
  expectDocumentedAnswer('POST', '/api/users', res.status, body);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(body)}`);
  return body as { _id: string; referralCode: string };
}

/** Places an order from the signed-in page's session (its cookies), returning its id. */
export async function placeOrderViaApi(page: Page, productName: string, qty = 1): Promise<string> {
  const list = await page.request.get('/api/products');
  const products = (await list.json()) as { _id: string; name: string; price: number }[];
  expectDocumentedAnswer('GET', '/api/products', list.status(), products);
  const product = products.find((p) => p.name === productName);
  if (!product) throw new Error(`no product ${productName}`);
  const total = (Math.round(product.price * 100) * qty) / 100;
  const res = await page.request.post('/api/orders', { data: { orderedItems: [{ _id: product._id, qty }], itemsPrice: total, totalPrice: total } });
  const order: unknown = await res.json();
  expectDocumentedAnswer('POST', '/api/orders', res.status(), order);
  if (res.status() !== 201) throw new Error(`order failed: ${res.status()} ${JSON.stringify(order)}`);
  return (order as { _id: string })._id;
}

/** The wei asked for by the order's latest quote. */
export async function quotedWei(shop: Shop, orderId: string): Promise<bigint> {
  const order = await shop.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { quotes: { orderBy: { createdAt: 'desc' }, take: 1 } } });
  return BigInt(order.quotes[0]!.amount.toFixed(0));
}

/**
 * A new buyer (registered through the api, signed in through the form) on the pay page
 * of a fresh order for the Starter Package ($25.00), in a browser with `wallet`.
 */
export async function buyerOnPayPage(shop: Shop, email: string, wallet: NonNullable<Parameters<Shop['newPage']>[0]>['wallet']) {
  await registerViaApi(shop, { email, password: 'secret123', name: email.split('@')[0]! });
  const page = await shop.newPage({ wallet });
  await signIn(page, email, 'secret123');
  const orderId = await placeOrderViaApi(page, 'Starter Package');
  await page.goto(`/order/${orderId}`);
  await page.getByRole('heading', { name: 'Pay', exact: true }).waitFor();
  return { page, orderId };
}

/** Reads the QR code named `name` from its pixels on screen, as a phone camera would (with its quiet zone: the image's parent). */
export async function scanQr(page: Page, name: string): Promise<string> {
  const png = await page.getByRole('img', { name }).locator('..').screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  if (!code) throw new Error(`no QR code could be read from '${name}'`);
  return code.data;
}

/**
 * Every Content-Security-Policy violation the browser reports on `page` from now on (its
 * `securitypolicyviolation` events, on every document it opens), read by the function
 * returned. Unlike the console, it also hears what a library tried and caught itself (an
 * eval refused inside a try), which Lighthouse still counts against best practices.
 */
export async function watchCspViolations(page: Page): Promise<() => string[]> {
  const violations: string[] = [];
  await page.exposeFunction('__shopCspViolation', (text: string) => void violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __shopCspViolation: (text: string) => void }).__shopCspViolation;
      void report(`${location.pathname}: ${e.effectiveDirective} refused ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  return () => [...violations];
}
