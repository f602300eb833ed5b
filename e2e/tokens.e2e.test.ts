import { erc20Abi, parseEther, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '@shop/core';
import { tokenBySymbol } from '@shop/core/contract';
import { waitFor } from '../scripts/testing/chain.ts';
import { tokenTransferRequest } from '../core/src/rails/erc20/index.ts';
import { mintMockToken } from '../scripts/lib/token-mocks.ts';
import { buyerOnPayPage } from './helpers.ts';
import { signInThroughUi } from './journey-helpers.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';

/**
 * Paying in dollars (issue "Pay in dollars"): one buyer picks USDC on the pay page and pays
 * from the browser wallet, which sends the token's `transfer` to the order's deposit
 * address; another pays USDT to the deposit address from an exchange's hot wallet, an
 * address nobody can sign for. Both orders are paid, the admin reads both in USD, and the
 * books are proven at close.
 */
const USDC = tokenBySymbol('USDC');
const USDT = tokenBySymbol('USDT');
const BUYER_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop({ env: { ACCEPTED_ASSETS: 'ETH,USDC,USDT', SWEEP_FOLLOW_MS: '1000' } });
});
afterAll(async () => {
  await shop?.close();
});

describe('a buyer who holds dollars on chain', () => {
  it('picks USDC and pays from the browser wallet; the page lands on Success Pay', async () => {
    const { page, orderId } = await buyerOnPayPage(shop, 'usdc.buyer@example.com', { account: BUYER_WALLET });
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: orderId } });
    const group = page.getByRole('radiogroup', { name: 'Pay with' });
    await group.getByRole('radio', { name: 'USDC' }).check();
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText(`Connected: ${BUYER_WALLET}`, { exact: false }).waitFor();
    const dollars = order.totalPrice.toFixed(2);
    const pay = page.getByRole('button', { name: `Pay ${dollars} USD (${dollars} USDC)` });
    await pay.waitFor();
    await shop.screenshot(page, '90-pay-usdc');
    await page.setViewportSize({ width: 390, height: 844 });
    await shop.screenshot(page, '90a-pay-usdc-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    await pay.click();
    await page.waitForURL(/\/order\/[0-9a-f-]{36}\/purchased\?tx=0x[0-9a-f]{64}$/, { timeout: 30_000 });
    await page.getByText('Success Pay').waitFor();
    await shop.screenshot(page, '91-usdc-success');
    const paid = await shop.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { payments: true } });
    expect(paid.status).toBe('PAID');
    expect(paid.payments.map((p) => [p.asset, p.amount?.toFixed(0), p.depositAddress, p.fromAddress])).toEqual([
      ['USDC', (BigInt(Math.round(Number(dollars) * 100)) * 10_000n).toString(), order.depositAddress, BUYER_WALLET.toLowerCase()],
    ]);
  });

  it("sends USDT to the order's deposit address from an exchange that cannot sign; the order is paid with no report", async () => {
    const { page, orderId } = await buyerOnPayPage(shop, 'usdt.buyer@example.com', false);
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: orderId } });
    await page.getByRole('radiogroup', { name: 'Pay with' }).getByRole('radio', { name: 'USDT' }).check();
    await page.getByRole('button', { name: /Paying from an exchange\?/ }).click();
    const dollars = order.totalPrice.toFixed(2);
    await page.getByRole('heading', { name: `Paying from an exchange? Send at least ${dollars} USDT to this address` }).waitFor();
    await shop.screenshot(page, '92-pay-usdt-exchange');

    const exchange = '0x00000000000000000000000000000000e8c4a9e2' as Address;
    await shop.chain.test.impersonateAccount({ address: exchange });
    await shop.chain.test.setBalance({ address: exchange, value: parseEther('1') });
    const amount = BigInt(Math.round(Number(dollars) * 100)) * 10_000n;
    await mintMockToken(shop.env.anvil!.rpcUrl, USDT, [exchange], amount);
    const hash = (await shop.chain.wallet.sendTransaction({ account: exchange, chain: null, ...tokenTransferRequest(USDT, order.depositAddress!, amount) })) as Hash;
    await page.waitForURL((url) => url.pathname === `/order/${orderId}/purchased` && url.searchParams.get('tx') === hash, { timeout: 30_000 });
    await page.getByText('Success Pay').waitFor();
    await shop.screenshot(page, '93-usdt-success');
    const paid = await shop.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { payments: true } });
    expect(paid.payments.map((p) => [p.asset, p.amount?.toFixed(0), p.status, p.payerAddress])).toEqual([['USDT', amount.toString(), 'COUNTED', null]]);
  });

  it('a sweep moves both to the receiving address; the admin reads both orders in USD on the overview, and each transfer in its asset', async () => {
    const tokenOrders = await shop.db.order.findMany({ where: { payments: { some: { asset: { in: ['USDC', 'USDT'] } } } }, orderBy: { createdAt: 'asc' } });
    expect(tokenOrders).toHaveLength(2);
    const addresses = tokenOrders.map((o) => o.depositAddress!);
    const receiving = shop.env.config.receivingAddress as Address;
    const balance = (token: typeof USDC, owner: Address) => shop.chain.wallet.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
    const before = { USDC: await balance(USDC, receiving), USDT: await balance(USDT, receiving) };
    // Runs are asked for (as 'Sweep now' does) until one sweeps the tokens; the worker follows it to CONFIRMED.
    const sweep = await waitFor(
      'a token sweep of both deposit addresses confirmed',
      async () => {
        await jobs.sweepDeposits(shop.env.runtime.queues);
        const row = await shop.db.depositSweep.findFirst({ where: { kind: 'TOKENS', items: { some: { address: addresses[0] } } }, include: { items: true } });
        return row?.status === 'CONFIRMED' && addresses.every((a) => row.items.some((i) => i.address === a)) ? row : null;
      },
      60_000,
      500,
    );
    expect(sweep.items.map((i) => i.asset).sort()).toEqual(['USDC', 'USDT']);
    const paid = await shop.db.payment.findMany({ where: { orderId: { in: tokenOrders.map((o) => o.id) } } });
    expect(paid.every((p) => p.sweepId === sweep.id)).toBe(true);
    const amountOf = (asset: string) => paid.filter((p) => p.asset === asset).reduce((sum, p) => sum + BigInt(p.amount!.toFixed(0)), 0n);
    expect((await balance(USDC, receiving)) - before.USDC).toBe(amountOf('USDC'));
    expect((await balance(USDT, receiving)) - before.USDT).toBe(amountOf('USDT'));
    for (const a of addresses) {
      expect(await balance(USDC, a as Address)).toBe(0n);
      expect(await balance(USDT, a as Address)).toBe(0n);
    }

    const admin = await shop.newPage();
    await signInThroughUi(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/admin');
    await admin.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const today = new Date().toISOString().slice(0, 10);
    const total = tokenOrders.reduce((sum, o) => sum + Number(o.totalPrice), 0).toFixed(2);
    const row = admin.getByRole('table', { name: 'Revenue and paid orders per day' }).getByRole('row').filter({ hasText: today });
    await row.waitFor();
    expect(await row.getByRole('cell').allInnerTexts()).toEqual([today, `USD $${total}`, '2']);
    await shop.screenshot(admin, '94-admin-overview-tokens');
    await admin.goto(`/admin/order/${tokenOrders[1]!.id}`);
    await admin.getByText(/USDT \(USD \$/).first().waitFor();
    await shop.screenshot(admin, '95-admin-order-usdt');
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.getByText(/USDT \(USD \$/).first().waitFor();
    await shop.screenshot(admin, '95a-admin-order-usdt-phone');
  });
});
