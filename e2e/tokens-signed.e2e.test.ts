import { erc20Abi, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANVIL_DEV_ACCOUNTS } from '@shop/core';
import { tokenBySymbol } from '@shop/core/contract';
import { expectBooksBalanced } from '../scripts/testing/books.ts';
import { buyerOnPayPage } from './helpers.ts';
import { startShop, type Shop } from './shop.ts';

/**
 * Paying USDC with one signature (issue 38): a buyer whose wallet holds USDC and no ETH at
 * all cannot send a token transfer (no gas). The pay page offers 'Pay with a signature (no
 * ETH needed)' first; the wallet signs the EIP-3009 authorization once (anvil signs for
 * its unlocked account), the shop checks it, its relay (anvil's account #9) sends it and
 * pays the gas, and the order is paid as any USDC payment to its deposit address.
 */
const USDC = tokenBySymbol('USDC');
/** Anvil's account #4: no other journey pays from it. */
const BUYER_WALLET = ANVIL_DEV_ACCOUNTS[4];
const SIGN = 'Pay with a signature (no ETH needed)';

let shop: Shop;
beforeAll(async () => {
  shop = await startShop({ env: { ACCEPTED_ASSETS: 'ETH,USDC,USDT' } });
});
afterAll(async () => {
  await shop?.close();
});

describe('a buyer who holds USDC and no ETH', () => {
  it("pays by signing once: no transaction from the wallet, the page lands on Success Pay, and the books reconcile", async () => {
    // The wallet holds the USDC the mocks gave it, and no ETH for any gas.
    await shop.chain.test.setBalance({ address: BUYER_WALLET, value: 0n });
    const usdcOf = (owner: Address) => shop.chain.wallet.readContract({ address: USDC.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
    const heldBefore = await usdcOf(BUYER_WALLET);

    const { page, orderId } = await buyerOnPayPage(shop, 'signer@example.com', { account: BUYER_WALLET });
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: orderId } });
    const dollars = order.totalPrice.toFixed(2);
    const amount = BigInt(Math.round(Number(dollars) * 100)) * 10_000n;
    await page.getByRole('radiogroup', { name: 'Pay with' }).getByRole('radio', { name: 'USDC' }).check();
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText(`Connected: ${BUYER_WALLET}`, { exact: false }).waitFor();
    // Once the page has read the wallet's funds, the transfer says why it cannot be sent and the signature comes first.
    const transfer = page.getByRole('button', { name: `Pay ${dollars} USD (${dollars} USDC)` });
    await page.getByText('This wallet has too little ETH for the network fee of a transfer').waitFor();
    const sign = page.getByRole('button', { name: SIGN });
    expect(await sign.isEnabled()).toBe(true);
    expect(await transfer.isDisabled()).toBe(true);
    await shop.screenshot(page, '96-pay-usdc-signature');
    await page.setViewportSize({ width: 390, height: 844 });
    await shop.screenshot(page, '96a-pay-usdc-signature-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    await sign.click();
    await page.waitForURL(/\/order\/[0-9a-f-]{36}\/purchased\?tx=0x[0-9a-f]{64}$/, { timeout: 60_000 });
    await page.getByText('Success Pay').waitFor();
    await shop.screenshot(page, '97-usdc-signature-success');
    await page.setViewportSize({ width: 390, height: 844 });
    await shop.screenshot(page, '97a-usdc-signature-success-phone');

    // One signature asked of the wallet, and no transaction.
    const methods = await page.evaluate(() => ((window as unknown as { __walletLog?: { method: string }[] }).__walletLog ?? []).map((e) => e.method));
    expect(methods.filter((m) => m === 'eth_signTypedData_v4')).toHaveLength(1);
    expect(methods.filter((m) => m === 'eth_sendTransaction' || m === 'eth_sendRawTransaction')).toHaveLength(0);

    // The shop's relay sent it: the order is paid exactly the quote, from the buyer's USDC; the buyer spent no gas.
    const paid = await shop.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { payments: true } });
    expect(paid.status).toBe('PAID');
    expect(paid.payments.map((p) => [p.asset, p.amount?.toFixed(0), p.status, p.depositAddress, p.fromAddress])).toEqual([
      ['USDC', amount.toString(), 'COUNTED', order.depositAddress, BUYER_WALLET.toLowerCase()],
    ]);
    const relayed = await shop.db.paymentAuthorization.findMany({ where: { orderId } });
    expect(relayed.map((a) => [a.status, a.txHash, a.relayAddress, a.value.toFixed(0)])).toEqual([
      ['CONFIRMED', paid.payments[0]!.txHash, shop.env.config.relayAddress, amount.toString()],
    ]);
    expect(new URL(page.url()).searchParams.get('tx')).toBe(paid.payments[0]!.txHash);
    expect(await shop.chain.wallet.getBalance({ address: BUYER_WALLET })).toBe(0n);
    expect(heldBefore - (await usdcOf(BUYER_WALLET))).toBe(amount);

    // The reconciler finds nothing (and again when the shop closes).
    await expectBooksBalanced(shop.env.runtime, 'a USDC payment signed once and sent by the relay');
  });
});
