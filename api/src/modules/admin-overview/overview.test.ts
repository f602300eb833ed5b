import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { applyLedger, Prisma, requestCashout } from '@shop/core';
import { orderReference, type AdminOverviewJson, type AuditEntryJson } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

// Orders are marked PAID by hand with their counted transfers (the real path, paid on
// chain, is the browser journey's: e2e/admin-overview.e2e.test.ts), so the reconciler
// finds those transfers on no chain.
let kit: ApiTestKit;
let admin: TestUser;
let buyer: TestUser;
let referrer: TestUser;
const ids: Record<string, string> = {};
// A package name a CSV must quote: a comma, quotes and a line break.
const AWKWARD = 'Gold, "Premium"\nPackage';
const WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
let tx = 0;

type Line = { productId: string; name: string; price: string; qty: number };

/** An order placed at `createdAt`, in `status`, paid at `paidAt` by counted transfers worth `payments` (USD). */
async function order(key: string, o: { createdAt: string; status: 'PAID' | 'PENDING_PAYMENT' | 'VERIFYING'; paidAt?: string; lines: Line[]; payments?: string[] }) {
  const total = o.lines.reduce((sum, l) => sum.plus(new Prisma.Decimal(l.price).times(l.qty)), new Prisma.Decimal(0));
  const paid = (o.payments ?? []).reduce((sum, p) => sum.plus(p), new Prisma.Decimal(0));
  const paidAt = o.paidAt ? new Date(o.paidAt) : null;
  const created = await kit.db.order.create({
    data: {
      userId: buyer.id,
      status: o.status,
      stockReserved: false,
      itemsPrice: total,
      totalPrice: total,
      paidUsd: paid,
      overpaidUsd: o.status === 'PAID' && paid.gt(total) ? paid.minus(total) : 0,
      paidVersion: o.status === 'PAID' ? 1 : 0,
      paidAt,
      createdAt: new Date(o.createdAt),
      items: {
        create: o.lines.map((l) => ({
          productId: l.productId, name: l.name, image: '/images/p.png', price: new Prisma.Decimal(l.price), qty: l.qty, dailyCredit: 1, durationDays: 30,
          creditEndsAt: paidAt ? new Date(paidAt.getTime() + 30 * 86_400_000) : null,
        })),
      },
    },
  });
  for (const usd of o.payments ?? []) {
    tx++;
    await kit.db.payment.create({
      data: {
        txHash: `0x${tx.toString(16).padStart(64, '0')}`, orderId: created.id, source: 'INDEXED', status: 'COUNTED', usdValue: new Prisma.Decimal(usd),
        amount: new Prisma.Decimal('1000000000000000'), blockNumber: BigInt(tx), blockHash: `0x${'b'.repeat(63)}${tx % 10}`, createdAt: new Date(o.paidAt ?? o.createdAt),
      },
    });
  }
  ids[key] = created.id;
  return created.id;
}

/** A ledger entry through the ledger, then dated `at`. */
async function entry(userId: string, kind: 'REFERRAL_REWARD' | 'REFERRAL_REVERSAL' | 'ADMIN_ADJUSTMENT', amount: string, reference: string, key: string, at: string) {
  await applyLedger(kit.db, [{ userId, account: 'ACTIVE', amount, kind, reference, idempotencyKey: key }]);
  await kit.db.ledgerEntry.update({ where: { idempotencyKey: key }, data: { createdAt: new Date(at) } });
}

let nonce = 0;

/** A signed USDC payment for the order `key`, received at `createdAt`, its relay's gas (once mined) `feeWei` and `feeUsd`. */
async function authorization(key: string, a: { createdAt: string; status: 'SENT' | 'CONFIRMED' | 'FAILED' | 'DROPPED'; feeWei?: string; feeUsd?: string }) {
  nonce++;
  await kit.db.paymentAuthorization.create({
    data: {
      orderId: ids[key]!, userId: buyer.id, asset: 'USDC', fromAddress: WALLET.toLowerCase(), toAddress: `0x${'d'.repeat(40)}`, value: new Prisma.Decimal('100000000'),
      validAfter: 0n, validBefore: 2_000_000_000n, nonce: `0x${nonce.toString(16).padStart(64, '0')}`, signature: `0x${'5'.repeat(130)}`, status: a.status,
      feeWei: a.feeWei ? new Prisma.Decimal(a.feeWei) : null, feeUsd: a.feeUsd ? new Prisma.Decimal(a.feeUsd) : null, createdAt: new Date(a.createdAt),
    },
  });
}

beforeAll(async () => {
  kit = await createApiTestKit({ chain: true, ethUsd: '3000', reconcileSkip: ['counted-off-chain'] });
  admin = await kit.createUser({ name: 'Ada Admin', isAdmin: true });
  referrer = await kit.createUser({ name: 'Rita Referrer' });
  // A name a spreadsheet would run as a formula.
  buyer = await kit.createUser({ name: '=HYPERLINK("http://evil.example")', referredById: referrer.id });
  await kit.db.user.update({ where: { id: buyer.id }, data: { createdAt: new Date('2026-03-02T10:00:00Z') } });
  const gold = await kit.db.product.create({ data: { name: AWKWARD, image: '/images/gold.png', description: 'Gold', price: 100, dailyCredit: 1 } });
  const silver = await kit.db.product.create({ data: { name: 'Silver Package', image: '/images/silver.png', description: 'Silver', price: 25, dailyCredit: 1 } });
  const g = (qty = 1): Line => ({ productId: gold.id, name: gold.name, price: '100.00', qty });
  const s = (qty = 1): Line => ({ productId: silver.id, name: silver.name, price: '25.00', qty });

  // The range tested is 1 to 3 March 2026 (UTC).
  await order('first', { createdAt: '2026-02-28T22:00:00Z', status: 'PAID', paidAt: '2026-03-01T00:00:00.000Z', lines: [g()], payments: ['100.00'] });
  await order('lastOfDay', { createdAt: '2026-03-01T20:00:00Z', status: 'PAID', paidAt: '2026-03-01T23:59:59.999Z', lines: [s(2)], payments: ['20.00', '30.00'] });
  // Overpaid by 5.00: the overpayment is the buyer's (refunded or credited), not revenue.
  await order('overpaid', { createdAt: '2026-03-01T23:00:00Z', status: 'PAID', paidAt: '2026-03-02T00:00:00.000Z', lines: [g(), s()], payments: ['130.00'] });
  // Paid a millisecond before the range starts: not in it.
  await order('before', { createdAt: '2026-02-27T10:00:00Z', status: 'PAID', paidAt: '2026-02-28T23:59:59.999Z', lines: [g(3)], payments: ['300.00'] });
  // Placed in the range and never paid: counts as placed, never as revenue.
  await order('unpaid', { createdAt: '2026-03-02T12:00:00Z', status: 'PENDING_PAYMENT', lines: [g(9)] });
  // Paid, then its transfer left the chain: back to VERIFYING, its reward reversed.
  await order('reorged', { createdAt: '2026-03-02T13:00:00Z', status: 'VERIFYING', lines: [s()] });

  await entry(referrer.id, 'REFERRAL_REWARD', '10.00', `order:${ids.first}`, `referral:${ids.first}:v1`, '2026-03-01T00:00:05Z');
  await entry(referrer.id, 'REFERRAL_REWARD', '30.00', `order:${ids.before}`, `referral:${ids.before}:v1`, '2026-02-28T23:59:59Z');
  await entry(referrer.id, 'REFERRAL_REWARD', '2.50', `order:${ids.reorged}`, `referral:${ids.reorged}:v1`, '2026-03-02T13:05:00Z');
  await entry(referrer.id, 'REFERRAL_REVERSAL', '-2.50', `order:${ids.reorged}:reorg`, `referral-reversal:${ids.reorged}:v1`, '2026-03-03T08:00:00Z');
  await entry(referrer.id, 'ADMIN_ADJUSTMENT', '20.00', 'test:adjust', 'overview-adjust', '2026-03-03T09:00:00Z');

  // Signed payments the shop sent and paid the gas of, dated by their arrival.
  await authorization('first', { createdAt: '2026-03-01T00:00:00.000Z', status: 'CONFIRMED', feeWei: '52000000000000', feeUsd: '0.16' });
  await authorization('overpaid', { createdAt: '2026-03-03T23:59:59.999Z', status: 'CONFIRMED', feeWei: '61000000000000', feeUsd: '0.19' });
  // Failed on chain (the buyer's USDC moved away): its gas was paid all the same.
  await authorization('unpaid', { createdAt: '2026-03-02T12:00:01Z', status: 'FAILED', feeWei: '30000000000000', feeUsd: '0.07' });
  // Still on its way, and refused before sending: no gas yet, none ever.
  await authorization('unpaid', { createdAt: '2026-03-02T12:00:02Z', status: 'SENT' });
  await authorization('unpaid', { createdAt: '2026-03-02T12:00:03Z', status: 'DROPPED' });
  // A millisecond either side of the range: not in it.
  await authorization('before', { createdAt: '2026-02-28T23:59:59.999Z', status: 'CONFIRMED', feeWei: '70000000000000', feeUsd: '0.21' });
  await authorization('reorged', { createdAt: '2026-03-04T00:00:00.000Z', status: 'CONFIRMED', feeWei: '80000000000000', feeUsd: '0.24' });
});
afterAll(async () => {
  await kit?.close();
});

const overviewOf = async (query: string) => (await kit.as(admin)).get(`/api/admin/overview${query}`);

/** RFC 4180, read back: quoted fields, doubled quotes, line breaks inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      field += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

async function csvOf(file: string, query: string) {
  const res = await (await kit.as(admin)).get(`/api/admin/export/${file}.csv${query}`).buffer(true).parse((r, done) => {
    let body = '';
    r.setEncoding('utf8');
    r.on('data', (c: string) => (body += c));
    r.on('end', () => done(null, body));
  });
  expect(res.status, String(res.body)).toBe(200);
  const [header, ...rows] = parseCsv(res.body as string);
  const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
  return { res, raw: res.body as string, header: header!, records };
}

const cents = (s: string) => BigInt(s.replace('.', ''));
const usd = (c: bigint) => `${c / 100n}.${(c % 100n).toString().padStart(2, '0')}`;

describe('GET /api/admin/overview', () => {
  it("sums revenue and paid orders per UTC day, equal to the paid orders' counted transfers less overpayment", async () => {
    const res = await overviewOf('?from=2026-03-01&to=2026-03-03');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as AdminOverviewJson;
    expect(body.days).toEqual([
      { day: '2026-03-01', revenue: '150.00', paidOrders: 2 },
      { day: '2026-03-02', revenue: '125.00', paidOrders: 1 },
      { day: '2026-03-03', revenue: '0.00', paidOrders: 0 },
    ]);
    expect(body.totals).toEqual({
      revenue: '275.00', paidOrders: 3, newUsers: 1, referralRewards: '10.00', relayGasUsd: '0.42', relayGasWei: '143000000000000', relayedPayments: 3,
    });

    // The same figures from the books themselves: each paid order's counted transfers,
    // less what it received beyond its total, on the UTC day it was paid; and the
    // referral entries of the ledger dated in the range.
    const paid = await kit.db.order.findMany({ where: { status: 'PAID', paidAt: { gte: new Date('2026-03-01T00:00:00Z'), lt: new Date('2026-03-04T00:00:00Z') } }, include: { payments: true } });
    const fromBooks = new Map<string, { revenue: bigint; paidOrders: number }>();
    for (const o of paid) {
      const day = o.paidAt!.toISOString().slice(0, 10);
      const counted = o.payments.filter((p) => p.status === 'COUNTED').reduce((sum, p) => sum + cents(p.usdValue!.toFixed(2)), 0n);
      const was = fromBooks.get(day) ?? { revenue: 0n, paidOrders: 0 };
      fromBooks.set(day, { revenue: was.revenue + counted - cents(o.overpaidUsd.toFixed(2)), paidOrders: was.paidOrders + 1 });
    }
    for (const d of body.days) {
      expect({ day: d.day, revenue: d.revenue, paidOrders: d.paidOrders }).toEqual({ day: d.day, revenue: usd(fromBooks.get(d.day)?.revenue ?? 0n), paidOrders: fromBooks.get(d.day)?.paidOrders ?? 0 });
    }
    const referral = await kit.db.ledgerEntry.aggregate({
      where: { kind: { in: ['REFERRAL_REWARD', 'REFERRAL_REVERSAL'] }, createdAt: { gte: new Date('2026-03-01T00:00:00Z'), lt: new Date('2026-03-04T00:00:00Z') } },
      _sum: { amount: true },
    });
    expect(body.totals.referralRewards).toBe(referral._sum.amount!.toFixed(2));

    // A day alone: the boundary order paid at 00:00:00.000 is that day's, the one a millisecond before midnight the day before's.
    const second = (await overviewOf('?from=2026-03-02&to=2026-03-02')).body as AdminOverviewJson;
    expect(second.days).toEqual([{ day: '2026-03-02', revenue: '125.00', paidOrders: 1 }]);
    const before = (await overviewOf('?from=2026-02-28&to=2026-02-28')).body as AdminOverviewJson;
    expect(before.days).toEqual([{ day: '2026-02-28', revenue: '300.00', paidOrders: 1 }]);
  });

  it("sums the gas the shop paid to send the range's signed payments (a cost of sale), failed ones included, and nothing outside the range", async () => {
    const body = (await overviewOf('?from=2026-03-01&to=2026-03-03')).body as AdminOverviewJson;
    expect(body.totals).toMatchObject({ relayGasUsd: '0.42', relayGasWei: '143000000000000', relayedPayments: 3 });
    // The same from the authorizations themselves: those received in the range whose transaction was mined.
    const mined = await kit.db.paymentAuthorization.findMany({ where: { createdAt: { gte: new Date('2026-03-01T00:00:00Z'), lt: new Date('2026-03-04T00:00:00Z') }, feeWei: { not: null } } });
    expect(body.totals.relayGasWei).toBe(mined.reduce((sum, a) => sum + BigInt(a.feeWei!.toFixed(0)), 0n).toString());
    expect(body.totals.relayGasUsd).toBe(usd(mined.reduce((sum, a) => sum + cents(a.feeUsd!.toFixed(2)), 0n)));

    // Each boundary: the one received a millisecond before the range is the day before's, the one at midnight after it the next day's.
    const days = async (query: string) => ((await overviewOf(query)).body as AdminOverviewJson).totals;
    expect(await days('?from=2026-03-02&to=2026-03-02')).toMatchObject({ relayGasUsd: '0.07', relayGasWei: '30000000000000', relayedPayments: 1 });
    expect(await days('?from=2026-02-28&to=2026-02-28')).toMatchObject({ relayGasUsd: '0.21', relayGasWei: '70000000000000', relayedPayments: 1 });
    expect(await days('?from=2026-03-04&to=2026-03-04')).toMatchObject({ relayGasUsd: '0.24', relayGasWei: '80000000000000', relayedPayments: 1 });
    // A range with none: zero, not absent.
    expect(await days('?from=2026-01-01&to=2026-01-31')).toMatchObject({ relayGasUsd: '0.00', relayGasWei: '0', relayedPayments: 0 });
  });

  it('counts orders placed in the range by state, the top packages, and the open work', async () => {
    const before = (await overviewOf('?from=2026-03-01&to=2026-03-03')).body as AdminOverviewJson;
    expect(Object.fromEntries(before.ordersByStatus.filter((s) => s.count > 0).map((s) => [s.status, s.count]))).toEqual({ PAID: 2, PENDING_PAYMENT: 1, VERIFYING: 1 });
    expect(before.ordersByStatus.map((s) => s.status)).toContain('EXPIRED');
    expect(before.topPackages).toEqual([
      { productId: expect.any(String), name: AWKWARD, revenue: '200.00', qty: 2, orders: 2 },
      { productId: expect.any(String), name: 'Silver Package', revenue: '75.00', qty: 3, orders: 2 },
    ]);

    // Open work is counted whatever the range.
    await kit.db.payment.createMany({
      data: [
        { txHash: `0x${'e1'.repeat(32)}`, source: 'INFLOW', status: 'UNRESOLVED', amount: 1, createdAt: new Date('2025-01-01T00:00:00Z') },
        { txHash: `0x${'e2'.repeat(32)}`, source: 'INDEXED', status: 'LATE', amount: 1 },
        { txHash: `0x${'e3'.repeat(32)}`, source: 'REPORTED', status: 'PENDING' },
      ],
    });
    const { cashoutId } = await requestCashout(kit.db, kit.env.runtime.config, { userId: referrer.id, wallet: WALLET });
    const cashout = await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashoutId } });
    const after = (await overviewOf('?from=2026-03-01&to=2026-03-03')).body as AdminOverviewJson;
    expect(after.needsAction).toEqual({ payments: before.needsAction.payments + 2, cashouts: before.needsAction.cashouts + 1, cashoutsUsd: cashout.amountUsd.plus(before.needsAction.cashoutsUsd).toFixed(2) });
  });

  it('defaults to the last 30 days, today included', async () => {
    const res = await overviewOf('');
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const body = res.body as AdminOverviewJson;
    expect(body.to).toBe(today);
    expect(body.days).toHaveLength(30);
    expect(body.days[29]!.day).toBe(today);
    expect(body.from).toBe(body.days[0]!.day);
  });

  it('refuses a range it cannot read with a 400 that says why', async () => {
    const cases: [string, RegExp][] = [
      ['?from=2026-02-30', /from must be a date \(YYYY-MM-DD\)/],
      ['?to=yesterday', /to must be a date \(YYYY-MM-DD\)/],
      ['?from=2026-3-1', /from must be a date/],
      ['?from=2026-03-05&to=2026-03-01', /from \(2026-03-05\) must not be after to \(2026-03-01\)/],
      ['?from=2025-01-01&to=2026-01-02', /367 days long: at most 366 days/],
      ['?from=2026-01-01&from=2026-02-01', /from must be given once/],
      // Days the database's times cannot hold.
      ['?from=0000-01-01&to=0000-01-02', /from must be a date from 1970-01-01 to 9999-12-30/],
      ['?to=0000-01-05', /to must be a date from 1970-01-01/],
      ['?from=9999-12-31', /from must be a date from 1970-01-01 to 9999-12-30/],
    ];
    for (const [query, message] of cases) {
      const res = await overviewOf(query);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(message);
      const csv = await (await kit.as(admin)).get(`/api/admin/export/orders.csv${query}`);
      expect(csv.status, query).toBe(400);
    }
    // A leap year's whole year is 366 days: allowed.
    expect((await overviewOf('?from=2028-01-01&to=2028-12-31')).status).toBe(200);
  });

  it('is for admins only', async () => {
    for (const path of ['/api/admin/overview', '/api/admin/export/orders.csv', '/api/admin/export/paid-orders.csv', '/api/admin/export/payments.csv', '/api/admin/export/ledger.csv']) {
      expect((await request(kit.app).get(path)).status, path).toBe(401);
      const asBuyer = await (await kit.as(buyer)).get(path);
      expect(asBuyer.status, path).toBe(403);
      expect(asBuyer.body.message).toBe('Not authorized as an admin');
    }
  });
});

describe('the CSV exports', () => {
  it("lists the paid orders of the range, by the time they were paid, adding up to the chart's revenue", async () => {
    const { res, raw, records } = await csvOf('paid-orders', '?from=2026-03-01&to=2026-03-03');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="paid-orders_2026-03-01_2026-03-03.csv"');
    expect(records.map((r) => r.orderId)).toEqual([ids.first, ids.lastOfDay, ids.overpaid]);
    expect(records.map((r) => r.orderReference)).toEqual([ids.first, ids.lastOfDay, ids.overpaid].map((id) => orderReference(id!)));
    expect(records.map((r) => [r.paidAt, r.status, r.totalPrice, r.paidUsd, r.overpaidUsd])).toEqual([
      ['2026-03-01T00:00:00.000Z', 'PAID', '100.00', '100.00', '0.00'],
      ['2026-03-01T23:59:59.999Z', 'PAID', '50.00', '50.00', '0.00'],
      ['2026-03-02T00:00:00.000Z', 'PAID', '125.00', '130.00', '5.00'],
    ]);
    // The package name keeps its comma, quotes and line break; the buyer's name is text, not a formula.
    expect(records[0]!.items).toBe(`1 x ${AWKWARD} @ 100.00`);
    expect(raw).toContain(',"1 x Gold, ""Premium""\nPackage @ 100.00",');
    expect(records[0]!.buyerName).toBe(`'=HYPERLINK("http://evil.example")`);
    // Its totals per day are the chart's.
    const chart = ((await overviewOf('?from=2026-03-01&to=2026-03-03')).body as AdminOverviewJson).days;
    for (const d of chart) {
      const sum = records.filter((r) => r.paidAt!.startsWith(d.day)).reduce((s, r) => s + cents(r.totalPrice!), 0n);
      expect(usd(sum), d.day).toBe(d.revenue);
    }
  });

  it('lists the orders placed, the transfers and the ledger entries of the range, and only those', async () => {
    const orders = await csvOf('orders', '?from=2026-03-01&to=2026-03-03');
    expect(orders.records.map((r) => r.orderId)).toEqual([ids.lastOfDay, ids.overpaid, ids.unpaid, ids.reorged]);
    expect(orders.records.map((r) => r.status)).toEqual(['PAID', 'PAID', 'PENDING_PAYMENT', 'VERIFYING']);
    expect(orders.records[2]).toMatchObject({ paidAt: '', totalPrice: '900.00', paidUsd: '0.00' });

    const payments = await csvOf('payments', '?from=2026-03-01&to=2026-03-03');
    const inRange = await kit.db.payment.findMany({ where: { createdAt: { gte: new Date('2026-03-01T00:00:00Z'), lt: new Date('2026-03-04T00:00:00Z') } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(payments.records.map((r) => r.paymentId)).toEqual(inRange.map((p) => p.id));
    expect(payments.records.map((r) => [r.orderReference, r.usdValue, r.asset, r.amount, r.valueWei])).toEqual([
      [orderReference(ids.first!), '100.00', 'ETH', '1000000000000000', '1000000000000000'],
      ...inRange.slice(1).map((p) => [orderReference(p.orderId!), p.usdValue!.toFixed(2), 'ETH', '1000000000000000', '1000000000000000']),
    ]);

    const ledger = await csvOf('ledger', '?from=2026-03-01&to=2026-03-03');
    expect(ledger.records.map((r) => [r.kind, r.amount, r.orderReference])).toEqual([
      ['REFERRAL_REWARD', '10.00', orderReference(ids.first!)],
      ['REFERRAL_REWARD', '2.50', orderReference(ids.reorged!)],
      ['REFERRAL_REVERSAL', '-2.50', orderReference(ids.reorged!)],
      ['ADMIN_ADJUSTMENT', '20.00', ''],
    ]);
    expect(ledger.records[0]).toMatchObject({ userId: referrer.id, userEmail: referrer.email, account: 'ACTIVE', orderId: ids.first });
  });

  it('streams a range longer than a page, every row once, in order (ties in time by id)', async () => {
    // 2,150 entries in one millisecond: three pages of 1,000 whose boundaries fall inside the tie.
    await kit.db.$executeRaw`
      INSERT INTO "LedgerEntry" ("id", "userId", "account", "amount", "kind", "reference", "idempotencyKey", "createdAt")
      SELECT gen_random_uuid(), ${admin.id}::uuid, 'PASSIVE', 0, 'ADMIN_ADJUSTMENT', 'bulk', 'overview-bulk-' || g, '2026-04-01T12:00:00Z'::timestamptz
      FROM generate_series(1, 2150) g`;
    const { records } = await csvOf('ledger', '?from=2026-04-01&to=2026-04-01');
    expect(records).toHaveLength(2150);
    const got = records.map((r) => r.entryId!);
    expect(new Set(got).size).toBe(2150);
    expect(got).toEqual([...got].sort());
  });

  it('records each export in the audit log: who took which file of which range', async () => {
    await csvOf('payments', '?from=2026-03-02&to=2026-03-03');
    const log = await (await kit.as(admin)).get('/api/admin/audit?action=report.exported&limit=1');
    const [last] = log.body as AuditEntryJson[];
    expect(last).toMatchObject({
      action: 'report.exported',
      actor: { id: admin.id, email: admin.email },
      subject: { type: 'export', id: 'payments.csv' },
      after: { file: 'payments.csv', from: '2026-03-02', to: '2026-03-03' },
    });
  });
});
