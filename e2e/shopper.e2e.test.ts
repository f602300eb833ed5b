import type { Address, Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceToAnswer, usdCentsToWei } from '@shop/core';
import { orderReference, toCents } from '@shop/core/contract';
import { ANVIL_ACCOUNTS, waitFor } from '../scripts/testing/chain.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';
import { registerViaApi, signIn } from './helpers.ts';
import { ApiClient, toast } from './journey-helpers.ts';

/**
 * A new shopper on a phone (390 px), as issue "A finished shop" words it: buys two
 * packages, reads the receipt with quantities and totals, the person who referred them
 * sees the reward arrive in their statement, requests a cashout and sees it waiting,
 * then paid with its hash. The books are proven at close.
 */
const PHONE = { width: 390, height: 844 };
const BUYER_WALLET = ANVIL_ACCOUNTS[6];
const TREASURY = ANVIL_ACCOUNTS[5];
const CASHOUT_WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});

describe('a shopper on a phone', () => {
  let orderId: string;
  const referrer = { email: 'rosa@example.com', password: 'referrer123', name: 'Rosa Referrer' };

  it('registers by a referral link (the password rule shown first, a failure worded for people and gone on success)', async () => {
    const { referralCode } = await registerViaApi(shop, referrer);
    const page = await shop.newPage({ viewport: PHONE, wallet: { account: BUYER_WALLET } });
    await page.goto(`/register?ref=${referralCode}&redirect=/`);
    await page.getByRole('heading', { name: 'Registration:' }).waitFor();
    // The rule is on screen before anything fails, tied to the field.
    const password = page.getByLabel('Password');
    expect(await password.getAttribute('aria-describedby')).toBeTruthy();
    await page.getByText('At least 8 characters.').waitFor();
    await page.getByLabel('Email Address').fill('sam.shopper@example.com');
    await password.fill('short');
    await page.getByLabel('Name').fill('Sam Shopper');
    await page.getByRole('button', { name: 'Register' }).click();
    await toast(page, 'Password must be at least 8 characters').waitFor();
    await shop.screenshot(page, 'shopper-01-register-error');
    await password.fill('shopper-pass-1');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await toast(page, 'Password must be at least 8 characters').waitFor({ state: 'hidden' });

    // Two packages into the cart, the second twice.
    for (const [name, qty] of [['Gold Package', 1], ['Starter Package', 2]] as const) {
      await page.goto('/');
      await page.getByRole('link', { name }).first().click();
      if (qty > 1) await page.getByRole('combobox', { name: 'Count:' }).selectOption(String(qty));
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await page.waitForURL('**/cart');
    }
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.waitForURL('**/placeorder');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/order\/[0-9a-f-]{36}$/);
    orderId = new URL(page.url()).pathname.split('/').pop()!;

    // A calm pay page: the order by its reference, nothing red before the buyer acts.
    await page.getByRole('heading', { name: 'Pay', exact: true }).waitFor();
    await page.getByRole('heading', { name: `Order ${orderReference(orderId)}` }).waitFor();
    await page.getByRole('button', { name: 'Connect to MetaMask' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await shop.screenshot(page, 'shopper-02-pay');
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText(`Connected: ${BUYER_WALLET}`, { exact: false }).waitFor();
    await toast(page, 'MetaMask Successfully Connected').waitFor();
    await page.getByRole('button', { name: /^Pay 299\.50 USD/ }).click();
    await page.waitForURL(/\/purchased\?tx=0x[0-9a-f]{64}$/, { timeout: 30_000 });
    const tx = new URL(page.url()).searchParams.get('tx')!;

    // 'Success Pay' with the hash, then the receipt: quantities, line totals, the total, ETH paid, the term.
    await page.getByText('Success Pay').waitFor();
    // The pay page's news stays with the pay page: nothing lies over the hash.
    await toast(page, 'MetaMask Successfully Connected').waitFor({ state: 'hidden', timeout: 1_000 });
    const receipt = page.getByRole('region', { name: 'Receipt' });
    await receipt.getByRole('heading', { name: `Receipt ${orderReference(orderId)}` }).waitFor();
    const rows = receipt.getByRole('row');
    // Each row as one line of words, in the order of the list (the lines' own order is the order's).
    const rowTexts = async () => (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).sort();
    await expect.poll(rowTexts).toEqual([
      expect.stringMatching(/^Gold Package USD \$6\.00 a day for 90 days, until \d{4}-\d\d-\d\d 1 USD \$249\.50$/),
      'Package Qty Total',
      expect.stringMatching(/^Starter Package USD \$0\.50 a day for 30 days, until \d{4}-\d\d-\d\d 2 USD \$50\.00$/),
    ]);
    await receipt.getByText('$299.50 USD').first().waitFor();
    const paid = await shop.db.payment.findFirstOrThrow({ where: { orderId, status: 'COUNTED' } });
    expect(paid.txHash).toBe(tx.toLowerCase());
    await receipt.getByText(tx.toLowerCase()).waitFor();
    await receipt.getByText(/^0\.09983\d ETH$/).first().waitFor(); // 299.50 at $3000
    await receipt.getByText(/\(90 days left\)/).waitFor();
    await shop.screenshot(page, 'shopper-03-success-receipt');

    // The order's own page is its receipt now, titled for what it is.
    await page.goto(`/order/${orderId}`);
    await page.getByRole('heading', { name: `Order ${orderReference(orderId)}`, level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Receipt' }).waitFor();
    await expect.poll(() => page.title()).toBe(`Order ${orderReference(orderId)} | ETH Shop`);

    // My Packages: each line's quantity and total, its term left, and its order.
    await page.goto('/profile');
    const packages = page.getByRole('list', { name: 'Paid orders' });
    const starter = packages.getByRole('listitem').filter({ hasText: 'Starter Package' });
    await starter.getByText('2 x $25.00 = $50.00').waitFor();
    await starter.getByText('(30 days left)').waitFor();
    await starter.getByRole('link', { name: orderReference(orderId) }).waitFor();
    await shop.screenshot(page, 'shopper-04-my-packages');
  });

  it('the referrer sees the reward in the statement, cashes out, sees it waiting, then paid with its hash', async () => {
    const page = await shop.newPage({ viewport: PHONE });
    await signIn(page, referrer.email, referrer.password);
    await page.goto('/profile');
    const statement = page.getByRole('list', { name: 'Statement' });
    const reward = statement.getByRole('listitem').filter({ hasText: 'Referral reward from Sam Shopper' });
    await reward.getByText('+29.95 USD').waitFor(); // 10% of 299.50
    await statement.scrollIntoViewIfNeeded();
    await shop.screenshot(page, 'shopper-05-referrer-statement');

    await page.getByRole('link', { name: 'Cashout', exact: true }).click();
    await page.waitForURL('**/profile/cashout');
    await page.getByText('your active balance must be above 20.00 USD', { exact: false }).waitFor();
    await page.getByLabel('Wallet Address').fill(CASHOUT_WALLET);
    await page.getByRole('button', { name: /^Cashout \(/ }).click();
    // What will happen, then 'Confirm cashout': a wallet the account was never paid to is announced by e-mail.
    const confirm = page.getByRole('alertdialog', { name: 'Confirm your cashout' });
    await confirm.getByText('29.95 USD (about', { exact: false }).waitFor();
    await confirm.getByText('A wallet new to your account').waitFor();
    await shop.screenshot(page, 'shopper-06a-cashout-confirm');
    await confirm.getByRole('button', { name: 'Confirm cashout' }).click();
    await toast(page, 'Cashout Success').waitFor();
    await page.waitForURL((url) => url.pathname === '/profile');
    const waiting = page.getByRole('list', { name: 'Cashouts waiting to be paid' });
    await waiting.getByText('29.95 USD').waitFor();
    const requested = statement.getByRole('listitem').filter({ hasText: 'Cashout requested' });
    await requested.getByText('Waiting to be paid').waitFor();
    await requested.getByText('-29.95 USD').waitFor();
    await shop.screenshot(page, 'shopper-06-cashout-waiting');

    // The shop pays it: a real transfer on anvil, its hash given by an admin, verified by the worker.
    const cashout = await shop.db.cashoutRequest.findFirstOrThrow({ where: { wallet: { equals: CASHOUT_WALLET, mode: 'insensitive' } } });
    const wei = usdCentsToWei(toCents(cashout.amountUsd.toFixed(2)), priceToAnswer(cashout.ethUsd!.toFixed(8)));
    const hash: Hash = await shop.chain.sendAndWait(TREASURY, CASHOUT_WALLET as Address, wei);
    const admin = new ApiClient(shop.baseUrl);
    expect((await admin.request('POST', '/api/users/login', ADMIN)).status).toBe(200);
    const marked = await admin.request('POST', `/api/admin/cashouts/${cashout.id}/paid`, { payoutTxHash: hash });
    expect(marked.status, JSON.stringify(marked.body)).toBe(202);
    await waitFor('the cashout to be verified and PAID', async () => (await shop.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status === 'PAID');

    await page.reload();
    await requested.getByText('Paid', { exact: true }).waitFor();
    await requested.getByText(`${hash.slice(0, 10)}…${hash.slice(-8)}`).waitFor();
    expect(await page.getByRole('list', { name: 'Cashouts waiting to be paid' }).count()).toBe(0);
    await shop.screenshot(page, 'shopper-07-cashout-paid');
  });
});
