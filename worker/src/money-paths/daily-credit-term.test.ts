import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditDaily } from '@shop/core';
import { ANVIL_ACCOUNTS } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

let kit: PaymentKit;
let buyer: TestUser;
const payer = ANVIL_ACCOUNTS[5];
const DAY = 24 * 3600_000;

beforeAll(async () => {
  kit = await createPaymentKit();
  buyer = await kit.createUser({ name: 'Buyer' });
  await kit.runIndexer(); // checkpoint at the current head
});
afterAll(async () => {
  await kit?.close();
});

async function terms(orderId: string) {
  const order = await kit.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true } });
  return { paidAt: order.paidAt, ends: order.items.map((i) => ({ durationDays: i.durationDays, creditEndsAt: i.creditEndsAt })) };
}

describe('the daily credit term of an order', () => {
  it('is set when the order becomes PAID, cleared when a reorg unpays it, and set again when it is paid again', async () => {
    const order = await kit.placeOrder(buyer, 2);
    expect((await terms(order.id)).ends.every((e) => e.creditEndsAt === null)).toBe(true);

    const hash = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    const paid = await terms(order.id);
    for (const e of paid.ends) expect(e.creditEndsAt?.getTime()).toBe(paid.paidAt!.getTime() + e.durationDays * DAY);

    await kit.chain.reorg(1);
    const rewound = await kit.runIndexer();
    expect(rewound.recheck.map((r) => r.txHash)).toContain(hash.toLowerCase());
    await kit.waitForStatus(order.id, 'VERIFYING');
    expect((await terms(order.id)).ends.every((e) => e.creditEndsAt === null)).toBe(true);
    // Unpaid, it is not read by daily credit (nothing of it is looked at).
    const whileUnpaid = await creditDaily(kit.db, new Date(Date.now() + 2 * DAY));
    expect(whileUnpaid.items).toBe(0);

    const rebroadcast = await kit.chain.sendAndWait(payer, kit.receiving, order.amountWei);
    await kit.report(buyer, order.id, rebroadcast);
    await kit.waitForStatus(order.id, 'PAID');
    const again = await terms(order.id);
    expect(again.paidAt!.getTime()).toBeGreaterThan(paid.paidAt!.getTime());
    for (const e of again.ends) expect(e.creditEndsAt?.getTime()).toBe(again.paidAt!.getTime() + e.durationDays * DAY);
    expect((await creditDaily(kit.db, new Date(Date.now() + 2 * DAY))).items).toBe(again.ends.length);
  });
});
