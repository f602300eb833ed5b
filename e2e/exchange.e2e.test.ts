import { getAddress, parseEther, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '@shop/core';
import { waitFor } from '../scripts/testing/chain.ts';
import { buyerOnPayPage, scanQr } from './helpers.ts';
import { signInThroughUi } from './journey-helpers.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';

/**
 * Paying from an exchange (issue 27): the buyer opens 'Paying from an exchange?' on the
 * pay page and reads the order's deposit address from its QR code; the exchange sends a
 * round amount from its own hot wallet, an address with no key anybody could sign a claim
 * with. Nobody reports anything: the indexer finds the deposit by its address, the page
 * lands on 'Success Pay', the sweeper moves the deposit on to the receiving address, and
 * the books are proven at close.
 */
let shop: Shop;
beforeAll(async () => {
  // The worker follows a sweep it sent a second later (production: 10 s).
  shop = await startShop({ env: { SWEEP_FOLLOW_MS: '1000' } });
});
afterAll(async () => {
  await shop?.close();
});


/** An exchange's hot wallet: the node sends for it (impersonated), but no key exists to sign a claim. */
async function exchangeWallet(): Promise<Address> {
  const address = '0x00000000000000000000000000000000e8c4a9e1' as Address;
  await shop.chain.test.impersonateAccount({ address });
  await shop.chain.test.setBalance({ address, value: parseEther('10') });
  return address;
}

describe('a buyer whose ETH is on an exchange', () => {
  it("sends a round amount to the order's deposit address; the order is paid with no report, and the deposit is swept to the receiving address", async () => {
    const { page, orderId } = await buyerOnPayPage(shop, 'exchange.buyer@example.com', false);
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: orderId } });
    expect(order.depositAddress).toMatch(/^0x[0-9a-f]{40}$/);

    await page.getByRole('button', { name: 'Paying from an exchange?' }).click();
    const heading = page.getByRole('heading', { name: /^Paying from an exchange\? Send at least [0-9.]+ ETH to this address$/ });
    await heading.waitFor();
    const amountEth = /Send at least ([0-9.]+) ETH/.exec(await heading.innerText())![1]!;
    expect(amountEth).toBe('0.008334'); // $25.00 at $3000, rounded up to a millionth
    // The address checksummed (EIP-55), as wallets and exchanges show it, and the page's only QR code.
    const shown = getAddress(order.depositAddress!);
    await page.getByText(shown, { exact: true }).waitFor();
    expect(await scanQr(page, 'QR code of the deposit address')).toBe(`ethereum:${shown}@1`);
    expect(await page.getByRole('img', { name: /^QR code/ }).count()).toBe(1);
    await shop.screenshot(page, '44-pay-exchange');

    // At a phone's width the same: the address breaks across lines, one code, nothing runs off the side.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('button', { name: 'Paying from an exchange?' }).click();
    await page.getByText(shown, { exact: true }).waitFor();
    expect(await page.getByRole('img', { name: /^QR code/ }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shop.screenshot(page, '45-pay-exchange-narrow');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The exchange withdraws what the page asked for, from its hot wallet; nobody reports it.
    const from = await exchangeWallet();
    const hash = (await shop.chain.wallet.sendTransaction({ account: from, to: order.depositAddress as Address, value: parseEther(amountEth), chain: null })) as Hash;
    await page.waitForURL((url) => url.pathname === `/order/${orderId}/purchased` && url.searchParams.get('tx') === hash, { timeout: 30_000 });
    await page.getByText('Success Pay').waitFor();
    await shop.screenshot(page, '46-pay-exchange-success');
    const paid = await shop.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { payments: true } });
    expect(paid.status).toBe('PAID');
    expect(paid.payments.map((p) => [p.txHash, p.depositAddress, p.status, p.payerAddress])).toEqual([[hash, order.depositAddress, 'COUNTED', null]]);

    // The sweeper moves it on to the receiving address, verified on chain.
    const receiving = shop.env.config.receivingAddress as Address;
    const before = await shop.chain.wallet.getBalance({ address: receiving });
    // Runs are asked for (as 'Sweep now' does) until one sends the sweep; then no more: the
    // worker follows the sweep it sent by itself (SWEEP_FOLLOW_MS) and confirms it once mined.
    const sent = await waitFor(
      'the deposit to be in a sweep sent',
      async () => {
        await jobs.sweepDeposits(shop.env.runtime.queues);
        return shop.db.depositSweep.findFirst({ where: { items: { some: { address: order.depositAddress! } } } });
      },
      30_000,
      500,
    );
    const sweep = await waitFor(
      'the sweep confirmed with no other run asked for',
      async () => {
        const row = await shop.db.depositSweep.findUniqueOrThrow({ where: { id: sent.id } });
        return row.status === 'CONFIRMED' ? row : null;
      },
      30_000,
      500,
    );
    expect(sweep.sweptWei?.toFixed(0)).toBe(parseEther(amountEth).toString());
    expect((await shop.chain.wallet.getBalance({ address: receiving })) - before).toBe(parseEther(amountEth));
    expect(await shop.chain.wallet.getBalance({ address: order.depositAddress as Address })).toBe(0n);

    // The operator reads it on Admin > Payments: nothing left unswept, the sweep and its gas.
    const admin = await shop.newPage();
    await signInThroughUi(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/admin/payments');
    const card = admin.getByRole('region', { name: 'Deposit addresses' });
    await card.getByRole('table', { name: 'Recent sweeps' }).getByText('CONFIRMED').first().waitFor();
    await card.getByText('0 sweeps on the way').waitFor();
    // The sweeper's line says what it did once: no "Sent a sweep (Sent sweep ...)".
    expect(await card.getByText(/^Sweeper:/).innerText()).not.toMatch(/Sent a sweep \(Sent sweep/);
    await shop.screenshot(admin, '47-admin-deposits');
    await admin.setViewportSize({ width: 390, height: 844 });
    await card.getByText('0 sweeps on the way').waitFor();
    await shop.screenshot(admin, '47a-admin-deposits-phone');
  });
});
