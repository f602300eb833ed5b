import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import type { Address, Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANVIL_ACCOUNTS, waitFor } from '../scripts/testing/chain.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';
import { placeOrderViaApi, quotedWei, registerViaApi, signIn } from './helpers.ts';

/**
 * Money out, as an admin does it (issue "Refunds, verified payouts and signed webhooks"):
 * a webhook endpoint registered on the Webhooks page receives every event of a paid
 * order exactly once per id across a forced retry; the admin refunds an overpayment and
 * a late transfer from the Payments page, the buyer sends the late one's refund to another
 * wallet by signing with the wallet that paid, and the admin marks both paid on the
 * Cashouts page with real anvil transactions, a wrong one refused with its reason; the
 * buyer sees the refunds on the order. The books are proven at close.
 */
const payer = ANVIL_ACCOUNTS[3];
const treasury = ANVIL_ACCOUNTS[5];
const stranger = ANVIL_ACCOUNTS[4];
const FINNEY = 10n ** 15n;

type Delivery = { id: string; type: string; status: number; orderId: string | undefined };
let shop: Shop;
let receiving: Address;
let hooks: Server;
let hookUrl: string;
let secret = '';
const deliveries: Delivery[] = [];
const failFirst = new Set(['order.paid']);

beforeAll(async () => {
  shop = await startShop();
  receiving = shop.env.config.receivingAddress as Address;
  hooks = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = new Webhook(secret).verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as {
          type: string;
          data: { order?: { id: string }; refund?: { orderId: string } };
        };
        // The first attempt of each event type in failFirst is answered 500: it must come again.
        const status = failFirst.delete(event.type) ? 500 : 200;
        deliveries.push({ id: String(req.headers['webhook-id']), type: event.type, status, orderId: event.data.order?.id ?? event.data.refund?.orderId });
        res.writeHead(status).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/shop-events`;
});
afterAll(async () => {
  await shop?.close();
  await new Promise((resolve) => hooks?.close(resolve));
});

async function send(from: Address, to: Address, value: bigint): Promise<Hash> {
  return shop.chain.sendAndWait(from, to, value);
}

/** Gives a payout hash on the Cashouts page's Refunds table, in the row of `source`. */
async function markRefundPaid(page: Page, source: 'Overpayment' | 'Transfer', hash: Hash) {
  const row = page.getByRole('table', { name: 'Refunds' }).getByRole('row').filter({ hasText: source });
  await row.getByRole('button', { name: 'Mark Paid' }).click();
  await row.getByRole('textbox', { name: 'Payout tx hash' }).fill(hash);
  await row.getByRole('button', { name: 'Save' }).click();
  return row;
}

describe('an admin pays money back out', () => {
  let admin: Page;
  let buyer: Page;
  let overOrder: string;
  let lateOrder: string;

  it('registers a webhook endpoint on the Webhooks page', async () => {
    admin = await shop.newPage();
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/admin/webhooks');
    await admin.getByRole('heading', { name: 'Webhooks' }).waitFor();
    const form = admin.getByRole('form', { name: 'Add an endpoint' });
    await form.getByLabel('URL').fill(hookUrl);
    await form.getByLabel('Description').fill('fulfilment');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await admin.getByText(hookUrl).first().waitFor();
    await admin.getByRole('button', { name: 'Show secret' }).click();
    await admin.getByRole('button', { name: 'Hide secret' }).waitFor();
    secret = (await admin.getByText(/^whsec_[A-Za-z0-9+/=]{20,}$/).textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await shop.screenshot(admin, 'money-out-webhooks');
  });

  it('a buyer overpays one order and pays another late; the endpoint gets order.paid once per id after a failed first attempt', async () => {
    await registerViaApi(shop, { email: 'olga@example.com', password: 'secret123', name: 'Olga Over' });
    // The buyer's browser wallet is the account that paid (it signs for its refunds).
    buyer = await shop.newPage({ wallet: { account: payer } });
    await signIn(buyer, 'olga@example.com', 'secret123');
    overOrder = await placeOrderViaApi(buyer, 'Starter Package');
    lateOrder = await placeOrderViaApi(buyer, 'Starter Package');
    // 0.005 ETH more than asked (the tag digits untouched); found by the indexer, nobody reports it.
    await send(payer, receiving, (await quotedWei(shop, overOrder)) + 5n * FINNEY);
    await waitFor('the overpaid order to be paid', async () => (await shop.db.order.findUniqueOrThrow({ where: { id: overOrder } })).status === 'PAID');
    // The second order's quote lapsed before a transfer carrying its tag arrived, worth far less than due.
    const lateTag = (await quotedWei(shop, lateOrder)) % 10n ** 12n;
    await shop.db.paymentQuote.updateMany({ where: { orderId: lateOrder }, data: { createdAt: new Date(Date.now() - 30 * 60_000), expiresAt: new Date(Date.now() - 15 * 60_000) } });
    await send(payer, receiving, 2n * FINNEY + lateTag);
    await waitFor('the late transfer', async () => (await shop.db.payment.findFirst({ where: { orderId: lateOrder, status: 'LATE' } })) !== null);

    await waitFor('order.paid to be delivered', async () => deliveries.some((d) => d.type === 'order.paid' && d.status === 200));
    const paid = deliveries.filter((d) => d.orderId === overOrder);
    expect(paid.map((d) => [d.type, d.status])).toEqual([
      ['order.paid', 500],
      ['order.paid', 200],
    ]);
    expect(new Set(paid.map((d) => d.id)).size).toBe(1);
    await waitFor('order.late to be delivered', async () => deliveries.some((d) => d.orderId === lateOrder));
    expect(deliveries.filter((d) => d.orderId === lateOrder).map((d) => [d.type, d.status])).toEqual([['order.late', 200]]);
    // The buyer's order shows what was overpaid and lets them choose.
    await buyer.goto(`/order/${overOrder}`);
    await buyer.getByRole('region', { name: 'Overpayment' }).getByText(/more than the order total/).waitFor();
    await shop.screenshot(buyer, 'money-out-overpaid-order');
  });

  it('refunds the overpayment and the late transfer from the Payments page', async () => {
    await admin.goto('/admin/payments');
    const overpaid = admin.getByRole('table', { name: 'Overpaid orders' });
    await overpaid.getByRole('button', { name: 'Refund overpayment' }).click();
    // The form: the wallet (empty: each transfer's sender) and a reason for a second admin, should the refund wait for one.
    await overpaid.getByRole('textbox', { name: 'Reason for a second admin' }).waitFor();
    await shop.screenshot(admin, 'money-out-refund-form');
    await admin.setViewportSize({ width: 390, height: 844 });
    await shop.screenshot(admin, 'money-out-refund-form-phone');
    await admin.setViewportSize({ width: 1280, height: 900 });
    await overpaid.getByRole('button', { name: 'Request refund' }).click();
    await admin.getByText('Refund requested. Pay it out from the Cashouts page.').first().waitFor();
    await admin.getByRole('button', { name: 'Refund', exact: true }).click();
    await admin.getByRole('button', { name: 'Request refund' }).click();
    await waitFor('both refunds', async () => (await shop.db.refund.count()) === 2);
    expect((await shop.db.payment.findFirstOrThrow({ where: { txHash: { not: '' }, status: 'REFUNDED' } })).orderId).toBeNull();
    await shop.screenshot(admin, 'money-out-payments');
    // The buyer wants the late transfer's refund in another wallet: the paying wallet signs for it.
    const elsewhere = ANVIL_ACCOUNTS[6];
    await buyer.goto(`/order/${lateOrder}`);
    const refunds = buyer.getByRole('region', { name: 'Refunds' });
    await refunds.getByRole('button', { name: 'Send to another wallet' }).click();
    await refunds.getByLabel('New wallet').fill(elsewhere);
    await refunds.getByRole('button', { name: 'Sign and send' }).click();
    await buyer.getByText(/^Refund will be sent to/).waitFor();
    await shop.screenshot(buyer, 'money-out-buyer-redirects');
    expect(await shop.db.refund.findFirstOrThrow({ where: { source: 'TRANSFER' } })).toMatchObject({ wallet: elsewhere, walletSource: 'claim' });
  });

  it('marks both paid on the Cashouts page: a wrong transaction is refused with its reason, the right ones are verified and PAID', async () => {
    const over = await shop.db.refund.findFirstOrThrow({ where: { source: 'OVERPAYMENT' } });
    const late = await shop.db.refund.findFirstOrThrow({ where: { source: 'TRANSFER' } });
    expect(over.wallet).toBe(payer.toLowerCase());
    await admin.goto('/admin/cashouts');
    // Sent to the wrong address: refused, and the refund stays open.
    const wrong = await send(treasury, stranger, BigInt(over.amount.toFixed(0)));
    const row = await markRefundPaid(admin, 'Overpayment', wrong);
    await row.getByText(/Refused .*sent nothing to the requested wallet/).waitFor({ timeout: 60_000 });
    await shop.screenshot(admin, 'money-out-refused');
    expect((await shop.db.refund.findUniqueOrThrow({ where: { id: over.id } })).status).toBe('REQUESTED');
    // The right transactions.
    const good = await send(treasury, payer, BigInt(over.amount.toFixed(0)));
    await markRefundPaid(admin, 'Overpayment', good);
    const lateGood = await send(treasury, late.wallet as Address, BigInt(late.amount.toFixed(0)));
    await markRefundPaid(admin, 'Transfer', lateGood);
    await waitFor('both refunds PAID', async () => (await shop.db.refund.count({ where: { status: 'PAID' } })) === 2);
    await admin.reload();
    const refunds = admin.getByRole('table', { name: 'Refunds' });
    await refunds.getByText(good.slice(0, 8)).first().waitFor();
    await shop.screenshot(admin, 'money-out-cashouts');
    expect(await shop.db.refund.findUniqueOrThrow({ where: { id: over.id } })).toMatchObject({ status: 'PAID', payoutTxHash: good.toLowerCase() });
    expect(await shop.db.refund.findUniqueOrThrow({ where: { id: late.id } })).toMatchObject({ status: 'PAID', payoutTxHash: lateGood.toLowerCase() });

    // Each refund's event reaches the endpoint once; the buyer is e-mailed each hash and sees them on the order.
    await waitFor('refund.paid twice', async () => deliveries.filter((d) => d.type === 'refund.paid').length === 2);
    await waitFor('the refund e-mails', async () => shop.smtp.messages.filter((m) => /^Refund of/.test(m.subject ?? '')).length === 2);
    const mails = shop.smtp.messages.filter((m) => /^Refund of/.test(m.subject ?? '')).map((m) => m.text ?? '').join('\n');
    expect(mails).toContain(good.toLowerCase());
    expect(mails).toContain(lateGood.toLowerCase());
    await buyer.goto(`/order/${overOrder}`);
    const shown = buyer.getByRole('region', { name: 'Refunds' });
    await shown.getByText(good.toLowerCase()).waitFor();
    await shop.screenshot(buyer, 'money-out-buyer-refunds');
    // Every event the endpoint got, each id delivered with a 200 exactly once.
    const okIds = deliveries.filter((d) => d.status === 200).map((d) => d.id);
    expect(new Set(okIds).size).toBe(okIds.length);
  });
});
