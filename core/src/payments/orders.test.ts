import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, custom } from 'viem';
import { setEthUsdPrice } from '../../../scripts/lib/price-feed-mock.ts';
import { createCoreTestKit, type CoreTestKit } from '../../../scripts/testing/core-kit.ts';
import { waitForLockWait } from '../../../scripts/testing/waits.ts';
import { Prisma } from '../infra/db.ts';
import { createPriceSource, PriceUnavailableError } from '../rails/eth/price.ts';
import { createOrderDesk } from './order-desk.ts';
import { openQuotes } from './quotes.ts';
import { deleteOrder } from './order-closing.ts';
import { createProduct } from './stock.ts';

let kit: CoreTestKit;
beforeAll(async () => {
  kit = await createCoreTestKit({ chain: true });
});
afterAll(async () => {
  await kit?.close();
});

describe('quotes', () => {
  it('a quote is issued for what is due when it is issued: a transfer counted while the price was read leaves nothing to quote', async () => {
    const product = await createProduct(kit.db, { name: 'P', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('20.00'), countInStock: 5 });
    const buyer = await kit.createUser();
    const { id: orderId } = await createOrderDesk(kit.env.runtime).place(buyer.id, { orderedItems: [{ _id: product.id, qty: 1 }], itemsPrice: '20.00', totalPrice: '20.00' });
    // The first quote lapsed; while the new price is read, the order's payment is counted.
    await kit.db.paymentQuote.updateMany({ where: { orderId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const { quotes } = await openQuotes(kit.db, kit.env.config, orderId, async (asset) => {
      await kit.db.order.update({ where: { id: orderId }, data: { status: 'UNDERPAID', paidUsd: new Prisma.Decimal('15.00') } });
      return kit.env.runtime.assetPrices.forQuote(asset);
    });
    expect(quotes.map((q) => [q.asset, q.usdAmount.toFixed(2)])).toEqual([['ETH', '5.00']]);
    // Set back: this order has no transfer behind the paid amount.
    await kit.db.order.update({ where: { id: orderId }, data: { status: 'PENDING_PAYMENT', paidUsd: new Prisma.Decimal('0') } });
  });
});

describe('the order desk', () => {
  it('places the orders that arrive together in one batch; a batch the database fails is placed again one order at a time', async () => {
    const product = await createProduct(kit.db, { name: 'B', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('5.00'), countInStock: 50 });
    const buyers = await Promise.all(Array.from({ length: 5 }, () => kit.createUser()));
    const desk = createOrderDesk(kit.env.runtime);
    const line = (qty: number) => ({ orderedItems: [{ _id: product.id, qty }], itemsPrice: (5 * qty).toFixed(2), totalPrice: (5 * qty).toFixed(2) });
    // The first goes alone; the next ones wait for it and go together (one createdAt).
    const together = await Promise.all(buyers.map((b) => desk.place(b.id, line(1))));
    expect(new Set(together.map((o) => o.createdAt.getTime())).size).toBeLessThan(together.length);
    expect((await kit.db.product.findUniqueOrThrow({ where: { id: product.id } })).countInStock).toBe(45);

    // A fault of the database that only an order of 7 items meets.
    await kit.db.$executeRawUnsafe(`CREATE FUNCTION x_test_seven() RETURNS trigger AS $$ BEGIN IF NEW."qty" = 7 THEN RAISE EXCEPTION 'seven'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await kit.db.$executeRawUnsafe(`CREATE TRIGGER x_test_seven BEFORE INSERT ON "OrderItem" FOR EACH ROW EXECUTE FUNCTION x_test_seven()`);
    try {
      const outcomes = await Promise.allSettled(buyers.map((b, i) => desk.place(b.id, line(i === 2 ? 7 : 1))));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      const placed = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      expect(placed.map((o) => o.items.map((i) => i.qty))).toEqual([[1], [1], [1], [1]]);
      expect((await kit.db.product.findUniqueOrThrow({ where: { id: product.id } })).countInStock).toBe(41);
      expect(await kit.db.order.count({ where: { userId: buyers[2]!.id } })).toBe(1);
    } finally {
      await kit.db.$executeRawUnsafe('DROP TRIGGER x_test_seven ON "OrderItem"');
      await kit.db.$executeRawUnsafe('DROP FUNCTION x_test_seven()');
    }
  });
});

describe('the order desk when a dependency is down', () => {
  it('answers every order of a batch at once with the failure, reading the price feed once per batch, not once per order', async () => {
    const product = await createProduct(kit.db, { name: 'S', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('5.00'), countInStock: 50 });
    const buyers = await Promise.all(Array.from({ length: 6 }, () => kit.createUser()));
    const { runtime } = kit.env;
    let feedReads = 0;
    const chain = createPublicClient({
      transport: custom({
        request: ({ method, params }) => {
          if (method === 'eth_call') feedReads++;
          return runtime.chain.request({ method, params } as never);
        },
      }),
    });
    const deps = { ...runtime, chain: chain as never, config: { ...runtime.config, priceCacheSeconds: 0 } };
    const desk = createOrderDesk({ ...deps, prices: createPriceSource(deps) });
    await setEthUsdPrice(kit.env.anvil!.rpcUrl, '3000', { updatedAt: BigInt(Math.floor(Date.now() / 1000) - 7200) });
    try {
      const line = { orderedItems: [{ _id: product.id, qty: 1 }], itemsPrice: '5.00', totalPrice: '5.00' };
      const outcomes = await Promise.allSettled(buyers.map((b) => desk.place(b.id, line)));
      expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof PriceUnavailableError)).toBe(true);
      // The first order alone, the five that waited for it together.
      expect(feedReads).toBe(2);
      expect((await kit.db.product.findUniqueOrThrow({ where: { id: product.id } })).countInStock).toBe(50);
    } finally {
      await setEthUsdPrice(kit.env.anvil!.rpcUrl, '3000');
    }
  });
});

describe('deleting an order', () => {
  it('waits for a settlement holding one of its payments, instead of deadlocking with it', async () => {
    const product = await createProduct(kit.db, { name: 'D', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('5.00'), countInStock: 5 });
    const buyer = await kit.createUser();
    const { id: orderId } = await createOrderDesk(kit.env.runtime).place(buyer.id, { orderedItems: [{ _id: product.id, qty: 1 }], itemsPrice: '5.00', totalPrice: '5.00' });
    const payment = await kit.db.payment.create({ data: { txHash: `0x${'ab'.repeat(32)}`, source: 'REPORTED', status: 'PENDING', orderId, reports: { create: { orderId, userId: buyer.id } } } });
    // What settle.ts does: the payment's row lock, then (a moment later) the order's.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const holding = new Promise<void>((r) => (locked = r));
    const settling = kit.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "Payment" WHERE "id" = ${payment.id}::uuid FOR UPDATE`;
      locked();
      await held;
      await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid FOR UPDATE`;
    });
    // The settlement holds the payment's lock before the delete starts (on a busy machine
    // the delete could otherwise be done before the settlement's first statement).
    await holding;
    const deleting = deleteOrder(kit.db, orderId);
    // The delete has reached the settlement's lock and waits on it; then the settlement goes on.
    await waitForLockWait(kit.db, 'the delete to wait for the settlement');
    release();
    await Promise.all([settling, deleting]);
    expect((await kit.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe('DELETED');
  });
});
