import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderReference } from '@shop/core/contract';
import { startShop, type Shop } from './shop.ts';
import { buyerOnPayPage, placeOrderViaApi, registerViaApi, signIn, watchCspViolations } from './helpers.ts';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});

const BUYER_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

describe('buying with ETH', () => {
  it('from the cart through sign-up with a referral code to a verified payment, the profile and the referrer reward', async () => {
    const referrer = await registerViaApi(shop, { email: 'rita@example.com', password: 'referrer123', name: 'Rita Referrer' });
    const page = await shop.newPage({ wallet: { account: BUYER_WALLET } });
    const cspViolations = await watchCspViolations(page);
    await page.goto('/');
    await page.getByRole('link', { name: 'Gold Package' }).first().click();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForURL('**/cart');
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/placeorder');
    await page.getByRole('heading', { name: 'Daxil Olun' }).waitFor();
    await page.getByRole('link', { name: /register/i }).click();
    await page.waitForURL((url) => url.pathname === '/register' && url.searchParams.get('redirect') === '/placeorder');
    // The buyer came by the referrer's link: same page with ?ref=.
    await page.goto(`${new URL(page.url()).pathname}${new URL(page.url()).search}&ref=${referrer.referralCode}`);
    expect(await page.getByLabel('Referral Code').inputValue()).toBe(referrer.referralCode);
    await page.getByRole('heading', { name: 'Registration:' }).waitFor();
    await page.getByLabel('Email Address').fill('bob.buyer@example.com');
    await page.getByLabel('Password').fill('buyer12345');
    await page.getByLabel('Name').fill('Bob Buyer');
    await shop.screenshot(page, '10-register');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL('**/placeorder');
    await page.getByRole('heading', { name: 'Order Items' }).waitFor();
    await page.getByText('1 x $249.50 = $249.50').waitFor();
    await shop.screenshot(page, '11-placeorder');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.waitForURL(/\/order\/[0-9a-f-]{36}$/);
    const orderId = new URL(page.url()).pathname.split('/').pop()!;

    await page.getByRole('heading', { name: 'Pay', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText(`Connected: ${BUYER_WALLET}`, { exact: false }).waitFor();
    await page.getByText('MetaMask Successfully Connected').first().waitFor();
    // $249.50 at $3000/ETH = 0.083167 ETH (rounded up to a millionth).
    const pay = page.getByRole('button', { name: 'Pay 249.50 USD (0.083167 ETH)' });
    await pay.waitFor();
    await shop.screenshot(page, '12-pay');
    await pay.click();
    await page.waitForURL(/\/order\/[0-9a-f-]{36}\/purchased\?tx=0x[0-9a-f]{64}$/, { timeout: 30_000 });
    const tx = new URL(page.url()).searchParams.get('tx')!;
    await page.getByText('Success Pay').waitFor();
    expect(await page.getByTestId('tx-hash').innerText()).toBe(tx);
    await shop.screenshot(page, '13-success');
    // The pay page and its wallet code ran under the app's Content-Security-Policy.
    expect(cspViolations()).toEqual([]);

    // What was sent is exactly the quote, and the order is paid once.
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { quotes: true, payments: true } });
    expect(order.status).toBe('PAID');
    expect(order.payments).toHaveLength(1);
    expect(order.payments[0]!.amount!.toFixed(0)).toBe(order.quotes[0]!.amount.toFixed(0));
    // The cart is cleared once paid.
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '{}').cartItems ?? [])).toEqual([]);

    await page.goto('/profile');
    const expires = order.expiresAt!.toISOString().slice(0, 10);
    await page.getByText(`Expires in`, { exact: false }).first().waitFor();
    await page.getByText(expires, { exact: false }).first().waitFor();
    await page.getByRole('link', { name: 'Gold Package' }).first().waitFor();
    await shop.screenshot(page, '14-profile-buyer');

    const referrerPage = await shop.newPage();
    await signIn(referrerPage, 'rita@example.com', 'referrer123');
    await referrerPage.goto('/profile');
    await referrerPage.getByText('Referral Command: 1 person').waitFor();
    await referrerPage.getByText('24.95', { exact: false }).first().waitFor(); // 10% of 249.50
    await shop.screenshot(referrerPage, '15-profile-referrer');
  });
});

describe('changing one\'s mind', () => {
  it('a buyer cancels an unpaid order from the pay page: asked first, then its stock is back and it waits for no payment', async () => {
    const { page, orderId } = await buyerOnPayPage(shop, 'changedmind@example.com', {});
    const stock = async () => (await shop.db.product.findFirstOrThrow({ where: { name: 'Starter Package' } })).countInStock;
    const held = await stock();
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByRole('group', { name: 'Cancel this order?' }).waitFor();
    await shop.screenshot(page, '16-cancel-confirm');
    await page.getByRole('button', { name: 'Yes, cancel the order' }).click();
    await page.getByText('This order was cancelled: it no longer waits for a payment', { exact: false }).waitFor();
    await shop.screenshot(page, '17-cancelled');
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0);
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('CANCELLED');
    expect(await stock()).toBe(held + 1);
    // Its place among unpaid orders is free: the profile lists none.
    const unpaid = page.waitForResponse((r) => r.url().includes('/api/orders/mine?status=PENDING_PAYMENT'));
    await page.goto('/profile');
    expect(await (await unpaid).json()).toEqual([]);
    await page.getByRole('button', { name: 'Update Profile' }).waitFor();
    expect(await page.getByRole('list', { name: 'Unpaid orders' }).count()).toBe(0);

    // It stays in the order history, cancelled; the filter shows the cancelled ones alone, on a phone too.
    const history = page.getByRole('list', { name: 'Order history' });
    const reference = orderReference(orderId);
    await history.getByRole('listitem').filter({ hasText: reference }).filter({ hasText: 'Cancelled' }).waitFor();
    await page.getByRole('combobox', { name: 'Show' }).selectOption('CANCELLED');
    await page.waitForURL((url) => url.searchParams.get('orders') === 'CANCELLED');
    await expect.poll(() => history.getByRole('listitem').count()).toBe(1);
    await history.getByRole('link', { name: reference }).waitFor();
    await shop.screenshot(page, '17a-profile-order-history-cancelled');
    await page.setViewportSize({ width: 390, height: 844 });
    await history.getByRole('link', { name: reference }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shop.screenshot(page, '17b-profile-order-history-cancelled-phone');
    await history.getByRole('link', { name: reference }).click();
    await page.waitForURL((url) => url.pathname === `/order/${orderId}`);
  });
});

describe('every pay-page error, as a user meets it', () => {
  it("no wallet installed: 'Please,Install MetaMask!'", async () => {
    const { page } = await buyerOnPayPage(shop, 'nowallet@example.com', false);
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText('Please,Install MetaMask!').first().waitFor();
    await shop.screenshot(page, '20-error-install');
  });

  it("paying before connecting: 'Please,connect MetaMask.'", async () => {
    const { page } = await buyerOnPayPage(shop, 'notconnected@example.com', {});
    await page.getByRole('button', { name: /^Pay 25\.00 USD/ }).click();
    await page.getByText('Please,connect MetaMask.').first().waitFor();
  });

  it("a wallet on another chain: 'Please,switch Ethereum Mainnet Network.' and the offer to switch works", async () => {
    const { page } = await buyerOnPayPage(shop, 'otherchain@example.com', { chainId: '0xaa36a7' });
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText('Please,switch Ethereum Mainnet Network.').first().waitFor();
    await shop.screenshot(page, '21-error-chain');
    await page.getByRole('button', { name: 'Switch to Ethereum Mainnet' }).click();
    await page.getByText('Please,switch Ethereum Mainnet Network.').first().waitFor({ state: 'hidden' });
  });

  it("the user rejects the connection: 'Connection Error: ...'", async () => {
    const { page } = await buyerOnPayPage(shop, 'rejectconnect@example.com', { rejectConnect: true });
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText(/^Connection Error: .+/).first().waitFor();
  });

  it("the user rejects the payment: 'Payment Error: ...' and nothing is paid", async () => {
    const { page, orderId } = await buyerOnPayPage(shop, 'rejectpay@example.com', { rejectPayment: true });
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText('Connected:', { exact: false }).first().waitFor();
    await page.getByRole('button', { name: /^Pay 25\.00 USD/ }).click();
    await page.getByText(/^Payment Error: .+/).first().waitFor();
    await shop.screenshot(page, '22-error-payment');
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('PENDING_PAYMENT');
  });

  it("the ETH price cannot be fetched: 'Provider error.'", async () => {
    const { page, orderId } = await buyerOnPayPage(shop, 'noprice@example.com', {});
    await page.route('**/api/crypto/eth-price', (route) => route.abort('internetdisconnected'));
    await page.goto(`/order/${orderId}`);
    await page.getByText('Provider error.').first().waitFor();
  });
});

describe('on a phone without a wallet', () => {
  it("offers 'Open MetaMask' with the deep link to this page", async () => {
    await registerViaApi(shop, { email: 'phone@example.com', password: 'secret123', name: 'Phone User' });
    const page = await shop.newPage({
      viewport: { width: 390, height: 844 },
      userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
    });
    const cspViolations = await watchCspViolations(page);
    await signIn(page, 'phone@example.com', 'secret123');
    const orderId = await placeOrderViaApi(page, 'Starter Package');
    await page.goto(`/order/${orderId}`);
    const link = page.getByRole('link', { name: 'Open MetaMask' });
    await link.waitFor();
    const host = new URL(shop.baseUrl).host;
    expect(await link.getAttribute('href')).toBe(`https://metamask.app.link/dapp/${host}/order/${orderId}`);
    // The wallet column in too (its code run): the whole page ran under the CSP.
    await page.getByRole('link', { name: 'Open the payment request in a wallet app' }).first().waitFor();
    await shop.screenshot(page, '30-mobile-open-metamask');
    expect(cspViolations()).toEqual([]);
  });
});
