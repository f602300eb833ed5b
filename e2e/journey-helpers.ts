import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { applyLedger, hashPassword, newReferralCode } from '@shop/core';
import { expectDocumentedAnswer } from './helpers.ts';
import type { Shop } from './shop.ts';

/** Small helpers shared by the admin, cashout and guard journeys. */

export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** Signs in through the /login form ('Daxil Olun') and waits until the form has gone. */
export async function signInThroughUi(page: Page, email: string, password: string, redirect = '/'): Promise<void> {
  await page.goto(`/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByRole('heading', { name: 'Daxil Olun' }).waitFor();
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname === redirect);
}

/** Registers through /register and waits for the redirect target. */
export async function registerThroughUi(page: Page, user: { email: string; password: string; name: string }, redirect = '/'): Promise<void> {
  await page.goto(`/register?redirect=${encodeURIComponent(redirect)}`);
  await page.getByRole('heading', { name: 'Registration:' }).waitFor();
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByLabel('Name').fill(user.name);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL((url) => url.pathname === redirect);
}

/** A plain api client holding one session cookie, as a browser would; its answers are checked against the API document. */
export class ApiClient {
  private cookie = '';
  constructor(private readonly baseUrl: string) {}

  async request<T = unknown>(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(this.baseUrl + pathname, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const setCookies = res.headers.getSetCookie();
    if (setCookies.length > 0) this.cookie = setCookies.map((c) => c.split(';')[0]).join('; ');
    const text = await res.text();
    const answer: unknown = text ? JSON.parse(text) : undefined;
    // Every answer a journey reads is the one the published document declares.
    expectDocumentedAnswer(method, pathname, res.status, answer, res.headers.get('content-type') ?? '');
    return { status: res.status, body: answer as T };
  }
}

/** Registers a user through the api; returns its id and a signed-in client. */
export async function registerThroughApi(shop: Shop, user: { email: string; password: string; name: string }) {
  const client = new ApiClient(shop.baseUrl);
  const res = await client.request<{ _id: string }>('POST', '/api/users', user);
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body._id, client };
}

/** A user written straight to the database (for a second admin, say). */
export async function createUserInDb(shop: Shop, user: { email: string; password: string; name: string; isAdmin?: boolean }) {
  return shop.db.user.create({
    data: {
      name: user.name,
      email: user.email.toLowerCase(),
      passwordHash: await hashPassword(user.password),
      isAdmin: user.isAdmin ?? false,
      referralCode: newReferralCode(),
    },
  });
}

/** Moves a user's active balance to `target` through the ledger (an ADMIN_ADJUSTMENT). */
export async function setActiveBalance(shop: Shop, userId: string, target: string): Promise<void> {
  const user = await shop.db.user.findUniqueOrThrow({ where: { id: userId } });
  const delta = user.activeBalance.negated().plus(target);
  if (delta.isZero()) return;
  await applyLedger(shop.db, [
    { userId, account: 'ACTIVE', amount: delta.toFixed(2), kind: 'ADMIN_ADJUSTMENT', reference: 'e2e', idempotencyKey: unique('e2e-adjust') },
  ]);
}

/** A real PNG in a temp directory, for the file input. */
export async function writePng(color = '#ff8800', size = 64): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'e2e-png-'));
  const file = path.join(dir, 'package.png');
  await writeFile(file, await sharp({ create: { width: size, height: size, channels: 3, background: color } }).png().toBuffer());
  return file;
}

/** Polls until `check` returns a value, at most `timeoutMs` (generous: a busy machine is slow, and a wait ends when its state holds). */
export async function eventually<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A sonner toast with exactly this text. */
export const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
