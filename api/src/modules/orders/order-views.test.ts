import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, Prisma } from '@shop/core';
import { formatEth, orderReference } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

/**
 * The JSON an order is sent as, pinned: the buyer's view (placing, their list, the order
 * page, cancelling) and the admin's (the order list, the order page), every key in the
 * order it is sent. A client reads these; a change to them is a change of the api.
 */
let kit: ApiTestKit;
let admin: TestUser;
let buyer: TestUser;
let productId: string;

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const PAYER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
const time = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** Every key of a JSON answer as a path (`orderedItems[].name`), in the order it is sent; each array's items all read. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((item) => keyPaths(item, `${prefix}[]`)))];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...keyPaths(item, path)];
  });
}

const ORDER = ['_id', 'user', 'status', 'isPaid', 'createdAt', 'paidAt', 'expiresAt', 'paymentDeadline', 'itemsPrice', 'totalPrice', 'paidUsd'];
const ITEM = ['name', 'image', 'price', 'qty', 'product', 'dailyCredit', 'durationDays'];
const ORDERED_ITEMS = ['orderedItems', ...[...ITEM, 'creditEndsAt'].map((k) => `orderedItems[].${k}`)];
const OVERPAYMENT_PARTS = ['parts', 'parts[].txHash', 'parts[].from', 'parts[].asset', 'parts[].amount', 'parts[].wei', 'parts[].eth', 'parts[].usd'];
const OVERPAYMENT = ['overpayment', ...['usd', 'creditUsd', 'wei', 'eth', 'from', 'refundable', ...OVERPAYMENT_PARTS].map((k) => `overpayment.${k}`)];
const REFUND = [
  '_id', 'source', 'order', 'txHash', 'user', 'user._id', 'user.name', 'user.email', 'wallet', 'walletSource', 'asset', 'amount', 'amountText', 'amountWei', 'amountEth', 'amountUsd', 'status', 'payoutTxHash',
  // A refund paid by hand: no payout check (an object when there is one).
  'check', 'heldBy',
];

beforeAll(async () => {
  // Two orders are paid by hand (counted transfers with no chain behind them, a refund
  // marked paid by hand): the reconciler's checks of what is on chain are left out.
  kit = await createApiTestKit({ chain: true, ethUsd: '3000', reconcileSkip: ['counted-off-chain', 'payout-unverified', 'paid-without-term'] });
  admin = await kit.createUser({ name: 'Ada Admin', isAdmin: true });
  buyer = await kit.createUser({ name: 'Bea Buyer', email: `bea-views-${Date.now()}@example.com` });
  productId = (
    await createProduct(kit.db, { name: 'Gold Package', image: '/images/gold.svg', description: 'd', price: new Prisma.Decimal('25.00'), countInStock: 20, dailyCredit: new Prisma.Decimal('1.50'), durationDays: 30 })
  ).id;
});
afterAll(async () => {
  await kit?.close();
});

async function placeOrder() {
  const res = await (await kit.as(buyer)).post('/api/orders').send({ orderedItems: [{ _id: productId, qty: 2 }], itemsPrice: '50.00', totalPrice: '50.00' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { _id: string };
}

/** Pays an order by hand with a counted transfer of $55 ($5 over), $`settledUsd` of it refunded (a paid refund) or none. */
async function payByHand(orderId: string, n: number, settledUsd: '5.00' | '0.00') {
  const quote = await kit.db.paymentQuote.findFirstOrThrow({ where: { orderId } });
  const payment = await kit.db.payment.create({
    data: {
      txHash: hash(n), orderId, source: 'INDEXED', status: 'COUNTED', fromAddress: PAYER, payerAddress: PAYER,
      amount: new Prisma.Decimal('18333333333333333'), usdValue: new Prisma.Decimal('55.00'), blockNumber: 123n, blockHash: hash(n + 1),
      confirmations: 3, quoteId: quote.id,
    },
  });
  const paidAt = new Date('2026-03-01T12:00:00.000Z');
  const settled = settledUsd === '5.00';
  await kit.db.order.update({
    where: { id: orderId },
    data: {
      status: 'PAID', paidAt, expiresAt: new Date('2026-03-31T12:00:00.000Z'), paidUsd: new Prisma.Decimal('55.00'), overpaidUsd: new Prisma.Decimal('5.00'),
      overpaidSettledUsd: new Prisma.Decimal(settledUsd), overpaidSettledWei: new Prisma.Decimal(settled ? '1666666666666666' : '0'),
    },
  });
  const refund = settled
    ? await kit.db.refund.create({
        data: { source: 'OVERPAYMENT', paymentId: payment.id, orderId, userId: buyer.id, wallet: PAYER, walletSource: 'sender', amount: new Prisma.Decimal('1666666666666666'), amountUsd: new Prisma.Decimal('5.00'), status: 'PAID', payoutTxHash: hash(n + 2), paidAt },
      })
    : null;
  return { payment, refund, quote };
}

describe("the buyer's view of an order", () => {
  it('is the same in what placing answers, the list of their orders, the order page and a cancel', async () => {
    const placed = await placeOrder();
    const order = await kit.db.order.findUniqueOrThrow({ where: { id: placed._id } });
    const base = {
      _id: order.id, user: buyer.id, status: 'PENDING_PAYMENT', isPaid: false, createdAt: order.createdAt.toISOString(), paidAt: null, expiresAt: null,
      paymentDeadline: order.paymentDeadline!.toISOString(), itemsPrice: 50, totalPrice: 50, paidUsd: 0,
      orderedItems: [{ name: 'Gold Package', image: '/images/gold.svg', price: 25, qty: 2, product: productId, dailyCredit: 1.5, durationDays: 30, creditEndsAt: null }],
    };
    expect(keyPaths(placed)).toEqual([...ORDER, ...ORDERED_ITEMS]);
    expect(placed).toStrictEqual(base);

    const as = await kit.as(buyer);
    const mine = (await as.get('/api/orders/mine').expect(200)).body as unknown[];
    expect(mine).toHaveLength(1);
    expect(keyPaths(mine[0])).toEqual([...ORDER, ...ORDERED_ITEMS]);
    expect(mine[0]).toStrictEqual(base);

    const page = (await as.get(`/api/orders/${order.id}`).expect(200)).body;
    const QUOTE = ['quote', ...['ethUsd', 'amountWei', 'amountEth', 'usdAmount', 'receivingAddress', 'chainId', 'expiresAt', 'depositAddress'].map((k) => `quote.${k}`)];
    const QUOTES = ['quotes', ...['asset', 'amount', 'decimals', 'tokenAddress', 'payTo', 'depositAddress', 'receivingAddress', 'chainId', 'usdAmount', 'expiresAt'].map((k) => `quotes[].${k}`), 'quotesNotOffered'];
    expect(keyPaths(page)).toEqual([...ORDER, ...ORDERED_ITEMS, ...QUOTE, ...QUOTES, 'payments', 'overpayment', 'refunds', 'authorization']);
    const quote = await kit.db.paymentQuote.findFirstOrThrow({ where: { orderId: order.id } });
    expect(page).toStrictEqual({
      ...base,
      quote: {
        ethUsd: '3000.00000000', amountWei: quote.amount.toFixed(0), amountEth: '0.016667', usdAmount: 50, receivingAddress: kit.env.config.receivingAddress, chainId: 1,
        expiresAt: quote.expiresAt.toISOString(), depositAddress: order.depositAddress,
      },
      // The shop takes ETH alone here (ACCEPTED_ASSETS): one quote, the same one.
      quotes: [
        {
          asset: 'ETH', amount: quote.amount.toFixed(0), decimals: 18, tokenAddress: null, payTo: kit.env.config.receivingAddress, depositAddress: order.depositAddress,
          receivingAddress: kit.env.config.receivingAddress, chainId: 1, usdAmount: 50, expiresAt: quote.expiresAt.toISOString(),
        },
      ],
      quotesNotOffered: [],
      payments: [],
      overpayment: null,
      refunds: [],
      // No signed payment (EIP-3009) for this order.
      authorization: null,
    });

    const cancelled = (await as.post(`/api/orders/${order.id}/cancel`).expect(200)).body;
    expect(keyPaths(cancelled)).toEqual(['message', 'order', ...[...ORDER, ...ORDERED_ITEMS].map((k) => `order.${k}`)]);
    const after = await kit.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(cancelled).toStrictEqual({ message: 'Order cancelled', order: { ...base, status: 'CANCELLED', paymentDeadline: after.paymentDeadline?.toISOString() ?? null } });
  });

  it('of a paid order shows its transfers, its overpayment and its refunds', async () => {
    const settledId = (await placeOrder())._id;
    const openId = (await placeOrder())._id;
    const settled = await payByHand(settledId, 3000, '5.00');
    await payByHand(openId, 4000, '0.00');
    const as = await kit.as(buyer);
    const PAYMENT = ['txHash', 'status', 'confirmations', 'requiredConfirmations', 'reason', 'valueWei', 'asset', 'amount', 'usdValue'];
    const PAID = [...ORDER, ...ORDERED_ITEMS, 'quote', 'payments', ...PAYMENT.map((k) => `payments[].${k}`)];

    const paid = (await as.get(`/api/orders/${settledId}`).expect(200)).body;
    expect(keyPaths(paid)).toEqual([...PAID, 'overpayment', 'refunds', ...[...REFUND, 'createdAt', 'paidAt'].map((k) => `refunds[].${k}`), 'authorization']);
    expect(paid).toMatchObject({
      status: 'PAID', isPaid: true, paidAt: '2026-03-01T12:00:00.000Z', expiresAt: '2026-03-31T12:00:00.000Z', paidUsd: 55, quote: null,
      payments: [{ txHash: hash(3000), status: 'COUNTED', confirmations: 3, requiredConfirmations: kit.env.config.paymentConfirmations, reason: null, valueWei: '18333333333333333', asset: 'ETH', amount: '18333333333333333', usdValue: 55 }],
      overpayment: null,
      refunds: [{ _id: settled.refund!.id, source: 'OVERPAYMENT', order: settledId, txHash: hash(3000), wallet: PAYER, amountUsd: 5, status: 'PAID', payoutTxHash: hash(3002), paidAt: '2026-03-01T12:00:00.000Z' }],
    });

    const open = (await as.get(`/api/orders/${openId}`).expect(200)).body;
    expect(keyPaths(open)).toEqual([...PAID, ...OVERPAYMENT, 'refunds', 'authorization']);
    expect(open.overpayment).toStrictEqual({
      // Credited now: the lower of its value when it came and its ETH at today's price (rounded down).
      usd: 5, creditUsd: 4.99, wei: '1666666666666666', eth: '0.001666', from: PAYER, refundable: true,
      parts: [{ txHash: hash(4000), from: PAYER, asset: 'ETH', amount: '1666666666666666', wei: '1666666666666666', eth: '0.001666', usd: 5 }],
    });
  });
});

describe("the admin's view of an order", () => {
  it('in the order list is the buyer\'s view with the buyer named, a summary of its transfers and whether it can be deleted', async () => {
    const orderId = (await placeOrder())._id;
    await payByHand(orderId, 5000, '5.00');
    const order = await kit.db.order.findUniqueOrThrow({ where: { id: orderId } });
    const list = (await (await kit.as(admin)).get(`/api/orders?q=${orderReference(orderId)}`).expect(200)).body as unknown[];
    expect(list).toHaveLength(1);
    expect(keyPaths(list[0])).toEqual([
      '_id', 'user', 'user._id', 'user.name', ...ORDER.slice(2), ...ORDERED_ITEMS, 'payments', 'payments[].txHash', 'payments[].status', 'payments[].asset', 'payments[].amount', 'payments[].usdValue', 'canDelete', 'deleteBlockedReason',
    ]);
    expect(list[0]).toStrictEqual({
      _id: orderId, user: { _id: buyer.id, name: 'Bea Buyer' }, status: 'PAID', isPaid: true, createdAt: order.createdAt.toISOString(), paidAt: '2026-03-01T12:00:00.000Z',
      expiresAt: '2026-03-31T12:00:00.000Z', paymentDeadline: order.paymentDeadline?.toISOString() ?? null, itemsPrice: 50, totalPrice: 50, paidUsd: 55,
      orderedItems: [{ name: 'Gold Package', image: '/images/gold.svg', price: 25, qty: 2, product: productId, dailyCredit: 1.5, durationDays: 30, creditEndsAt: null }],
      payments: [{ txHash: hash(5000), status: 'COUNTED', asset: 'ETH', amount: '18333333333333333', usdValue: 55 }],
      canDelete: false,
      deleteBlockedReason: 'Paid orders cannot be deleted',
    });
  });

  it('on the order page is the order with its buyer, quotes, transfers, overpayment, refunds, deliveries and actions', async () => {
    const orderId = (await placeOrder())._id;
    const { payment, refund, quote } = await payByHand(orderId, 6000, '5.00');
    const order = await kit.db.order.findUniqueOrThrow({ where: { id: orderId } });
    const endpoint = await kit.db.webhookEndpoint.create({ data: { url: 'https://hooks.example.com/views', secret: 'whsec_test', events: ['order.paid'] } });
    const event = await kit.db.webhookEvent.create({ data: { id: 'msg_views', type: 'order.paid', subject: `order:${orderId}`, payload: {} } });
    await kit.db.webhookDelivery.create({ data: { eventId: event.id, endpointId: endpoint.id, subject: event.subject, seq: event.seq, status: 'DELIVERED', attempts: 1, lastStatus: 200, deliveredAt: new Date() } });

    const body = (await (await kit.as(admin)).get(`/api/admin/orders/${orderId}`).expect(200)).body;
    const PAYMENT = ['_id', 'txHash', 'status', 'source', 'order', 'from', 'valueWei', 'asset', 'amount', 'usdValue', 'blockNumber', 'reason', 'refund', 'createdAt', 'confirmations', 'requiredConfirmations', 'blockHash', 'payer', 'reportedOnly'];
    const DELIVERY = keyPaths(body.deliveries.items[0]);
    expect(DELIVERY.slice(-3)).toEqual(['endpoint', 'endpoint._id', 'endpoint.url']);
    expect(keyPaths(body)).toEqual([
      '_id', 'reference', 'status', 'isPaid', 'createdAt', 'paidAt', 'expiresAt', 'paymentDeadline', 'deletedAt', 'cancelledAt', 'depositAddress',
      'itemsPrice', 'totalPrice', 'paidUsd', 'overpaidUsd', 'overpaidSettledUsd',
      'items', ...ITEM.map((k) => `items[].${k}`),
      'buyer', 'buyer._id', 'buyer.name', 'buyer.email', 'buyer.deleted',
      'quotes', 'quotes.items', ...['_id', 'asset', 'amount', 'amountText', 'unitUsd', 'usdAmount', 'ethUsd', 'amountWei', 'amountEth', 'createdAt', 'expiresAt'].map((k) => `quotes.items[].${k}`), 'quotes.total',
      'payments', 'payments.items', ...PAYMENT.map((k) => `payments.items[].${k}`), 'payments.total',
      'overpayment',
      'refunds', 'refunds.items', ...[...REFUND, 'approval', 'approval.needed', 'approval.current', 'createdAt', 'paidAt'].map((k) => `refunds.items[].${k}`), 'refunds.total',
      'deliveries', 'deliveries.items', ...DELIVERY.map((k) => `deliveries.items[].${k}`), 'deliveries.total',
      'actions', 'actions.canDelete', 'actions.deleteBlockedReason', 'actions.canRefundOverpayment',
    ]);
    // The admin reads the whole amount asked, its tag included, at 6 decimals (the buyer reads the quoted base amount).
    expect(body).toMatchObject({
      _id: orderId, reference: orderReference(orderId), status: 'PAID', isPaid: true, createdAt: order.createdAt.toISOString(), paidAt: '2026-03-01T12:00:00.000Z',
      expiresAt: '2026-03-31T12:00:00.000Z', paymentDeadline: order.paymentDeadline?.toISOString() ?? null, deletedAt: null, cancelledAt: null, depositAddress: order.depositAddress,
      itemsPrice: 50, totalPrice: 50, paidUsd: 55, overpaidUsd: 5, overpaidSettledUsd: 5,
      items: [{ name: 'Gold Package', image: '/images/gold.svg', price: 25, qty: 2, product: productId, dailyCredit: 1.5, durationDays: 30 }],
      buyer: { _id: buyer.id, name: 'Bea Buyer', email: buyer.email, deleted: false },
      quotes: {
        items: [{ _id: quote.id, ethUsd: '3000.00000000', usdAmount: 50, amountWei: quote.amount.toFixed(0), amountEth: formatEth(quote.amount.toFixed(0), 6), createdAt: time, expiresAt: quote.expiresAt.toISOString() }],
        total: 1,
      },
      payments: { items: [{ _id: payment.id, txHash: hash(6000), confirmations: 3, blockHash: hash(6001), payer: PAYER, reportedOnly: false }], total: 1 },
      overpayment: null,
      refunds: { items: [{ _id: refund!.id, status: 'PAID' }], total: 1 },
      deliveries: { items: [{ endpoint: { _id: endpoint.id, url: 'https://hooks.example.com/views' } }], total: 1 },
      actions: { canDelete: false, deleteBlockedReason: 'Paid orders cannot be deleted', canRefundOverpayment: false },
    });
  });
});
