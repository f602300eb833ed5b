import type { Page } from 'playwright-core';
import { toFunctionSelector, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactEth } from '@shop/core/contract';
import { ANVIL_ACCOUNTS, waitFor } from '../scripts/testing/chain.ts';
import { deploySmartWallet } from '../scripts/testing/smart-wallet.ts';
import { buyerOnPayPage, quotedWei, scanQr } from './helpers.ts';
import { startShop, type Shop } from './shop.ts';

/**
 * Paying from any wallet (issue 13): a phone that scans the pay page's QR code, a
 * smart-contract wallet whose payment reaches the shop through an internal call, and a
 * buyer who claims a transfer that lost its tag by signing for it. Each pays its order
 * against anvil with the real indexer and verifier; the books are proven at close.
 */
let shop: Shop;
let receiving: Address;
beforeAll(async () => {
  shop = await startShop();
  receiving = shop.env.config.receivingAddress as Address;
});
afterAll(async () => {
  await shop?.close();
});

/** The page moves on by itself to 'Success Pay' with the transaction's hash. */
async function landsOnSuccess(page: Page, orderId: string, txHash: Hash) {
  await page.waitForURL((url) => url.pathname === `/order/${orderId}/purchased` && url.searchParams.get('tx') === txHash, { timeout: 30_000 });
  await page.getByText('Success Pay').waitFor();
  expect(await page.getByTestId('tx-hash').innerText()).toBe(txHash);
  const order = await shop.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { payments: true } });
  expect(order.status).toBe('PAID');
  expect(order.payments.filter((p) => p.status === 'COUNTED').map((p) => p.txHash)).toEqual([txHash]);
}


/** EIP-681 `ethereum:<address>@<chain id>?value=<wei>`, as a phone wallet reads it. */
function parsePaymentRequest(uri: string) {
  const match = /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)\?value=(\d+)$/.exec(uri);
  if (!match) throw new Error(`not an EIP-681 payment request: ${uri}`);
  return { to: match[1] as Address, chainId: Number(match[2]), value: BigInt(match[3]!) };
}

describe('a desktop browser with no wallet extension', () => {
  it('pays by a phone that scans the QR code: the page follows the order and lands on Success Pay', async () => {
    const { page, orderId } = await buyerOnPayPage(shop, 'qr.buyer@example.com', false);
    await page.getByRole('heading', { name: 'No browser wallet here: pay from your phone' }).waitFor();
    const due = await quotedWei(shop, orderId);
    // The exact amount, to the wei, is asked for in words too.
    await page.getByText(`${exactEth(due)} ETH`, { exact: true }).waitFor();
    await shop.screenshot(page, '40-pay-phone-qr');

    const scanned = await scanQr(page, 'QR code of the payment request');
    // The same request is offered as a link for a wallet app on this device.
    expect(await page.getByRole('link', { name: 'Open the payment request in a wallet app' }).getAttribute('href')).toBe(scanned);
    const request = parsePaymentRequest(scanned);
    expect(request).toEqual({ to: receiving, chainId: 1, value: due });

    // The phone's wallet sends exactly what it read; nobody reports the hash.
    const hash = await shop.chain.send(ANVIL_ACCOUNTS[3], request.to, request.value);
    await landsOnSuccess(page, orderId, hash);
    await shop.screenshot(page, '41-pay-phone-success');
  });
});

describe('a smart-contract wallet', () => {
  it('pays unreported: ETH that reaches the shop through an internal call is found by the indexer and counted by its tag', async () => {
    const { page, orderId } = await buyerOnPayPage(shop, 'safe.buyer@example.com', false);
    const smartWallet = await deploySmartWallet(shop.env.anvil!.rpcUrl, ANVIL_ACCOUNTS[4]);
    const hash = await smartWallet.pay(receiving, await quotedWei(shop, orderId));
    await landsOnSuccess(page, orderId, hash);
    const payment = await shop.db.payment.findFirstOrThrow({ where: { txHash: hash } });
    expect(payment).toMatchObject({ source: 'INDEXED', fromAddress: smartWallet.address.toLowerCase() });
  });

  it('pays reported from the pay page: the account contract calls out to the shop and the verifier traces the reported hash', async () => {
    const owner = ANVIL_ACCOUNTS[5];
    const smartWallet = await deploySmartWallet(shop.env.anvil!.rpcUrl, owner);
    const { page, orderId } = await buyerOnPayPage(shop, 'aa.buyer@example.com', {
      account: smartWallet.address,
      smartAccount: { owner, executeSelector: toFunctionSelector('execute(address,uint256)') },
    });
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText(`Connected: ${smartWallet.address}`, { exact: false }).waitFor();
    // Mined at once, the transfer can reach the indexer before the page's report reaches
    // the api, and it is then the indexer's find. The chain holds it until the report is
    // in, so this payment is the verifier's to find, by tracing the reported hash.
    await shop.chain.setAutomine(false);
    try {
      await page.getByRole('button', { name: /^Pay 25\.00 USD/ }).click();
      await waitFor('the page to report the payment', () => shop.db.payment.findFirst({ where: { reports: { some: { orderId } }, source: 'REPORTED' } }));
    } finally {
      await shop.chain.setAutomine(true);
    }
    await shop.chain.mine(1);
    await page.waitForURL(/\/purchased\?tx=0x[0-9a-f]{64}$/, { timeout: 30_000 });
    const hash = new URL(page.url()).searchParams.get('tx') as Hash;
    await landsOnSuccess(page, orderId, hash);
    // The transaction went to the account contract, not to the shop: only a trace shows the payment.
    const tx = await shop.chain.wallet.getTransaction({ hash });
    expect(tx.to?.toLowerCase()).toBe(smartWallet.address.toLowerCase());
    const payment = await shop.db.payment.findFirstOrThrow({ where: { txHash: hash } });
    expect(payment.source).toBe('REPORTED');
  });
});

describe('a transfer that lost its tag', () => {
  it('is claimed from the pay page by signing with the wallet that sent it, and pays the order', async () => {
    const buyer = ANVIL_ACCOUNTS[2];
    const { page, orderId } = await buyerOnPayPage(shop, 'claim.buyer@example.com', { account: buyer });
    // An exchange withdrawal rounded to 0.01 ETH: more than due ($25 at $3000 = 0.008333 ETH), but no tag.
    const hash = await shop.chain.send(buyer, receiving, 10n ** 16n);
    await waitFor('the transfer to be indexed as unresolved', async () => (await shop.db.payment.findFirst({ where: { txHash: hash } }))?.status === 'UNRESOLVED');
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('PENDING_PAYMENT');

    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText(`Connected: ${buyer}`, { exact: false }).waitFor();
    await page.getByText('Sent an amount that was rounded? Claim your transfer').click();
    await page.getByLabel('Transaction hash').fill(hash);
    await shop.screenshot(page, '42-pay-claim');
    await page.getByRole('button', { name: 'Sign and claim' }).click();
    await landsOnSuccess(page, orderId, hash);
    await shop.screenshot(page, '43-pay-claim-success');
    const payment = await shop.db.payment.findFirstOrThrow({ where: { txHash: hash } });
    expect(payment.orderId).toBe(orderId);
  });

  it("refuses a claim signed by a wallet that did not send the transfer, and the transfer stays for an admin", async () => {
    const sender = ANVIL_ACCOUNTS[6];
    const hash = await shop.chain.send(sender, receiving, 2n * 10n ** 16n);
    await waitFor('the transfer to be indexed as unresolved', async () => (await shop.db.payment.findFirst({ where: { txHash: hash } }))?.status === 'UNRESOLVED');
    // Someone else connects their own wallet and tries to take it for their order.
    const { page, orderId } = await buyerOnPayPage(shop, 'claim.thief@example.com', { account: ANVIL_ACCOUNTS[2] });
    await page.getByRole('button', { name: 'Connect to MetaMask' }).click();
    await page.getByText('Connected:', { exact: false }).first().waitFor();
    await page.getByText('Sent an amount that was rounded? Claim your transfer').click();
    await page.getByLabel('Transaction hash').fill(hash);
    await page.getByRole('button', { name: 'Sign and claim' }).click();
    const form = page.getByRole('form', { name: 'Claim a transfer' });
    await form.getByRole('alert').filter({ hasText: `The signature is not from the address that sent this transfer (${sender.toLowerCase()})` }).waitFor();
    await shop.screenshot(page, '44-pay-claim-refused');
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('PENDING_PAYMENT');
    const payment = await shop.db.payment.findFirstOrThrow({ where: { txHash: hash } });
    expect(payment).toMatchObject({ status: 'UNRESOLVED', orderId: null });
  });
});
