import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import pg from 'pg';
import { openSession } from '../../middleware/auth.ts';
import { createTestEnv, type TestEnv } from '../../../../scripts/testing/test-env.ts';
import { appReads } from '../../testing/app-reads.ts';

/**
 * The admin's deposit figures and the metrics scrape read the deposits waiting to be
 * swept and the sweeps of the last 30 days, never the history: here 20,000 deposits
 * swept long ago by 5,000 sweeps (millions of deposits after years of a busy shop).
 */
const HISTORY = 20_000;
const OLD_SWEEPS = 5_000;
const BOUND = 200;
const TABLES = ['Payment', 'DepositSweep', 'DepositSweepItem'];

let env: TestEnv;
let url: string;
let adminCookie: string;

beforeAll(async () => {
  env = await createTestEnv();
  url = env.config.databaseUrl;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Old sweeps, each with its address, and the deposits they swept.
    await client.query(`
      INSERT INTO "DepositSweep" ("id", "txHash", "fromAddress", "nonce", "status", "gasLimit", "maxFeePerGasWei", "expectedWei", "sweptWei", "feeWei", "gasUsed", "blockNumber", "blockHash", "createdAt", "updatedAt")
      SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, '0x5' || lpad(to_hex(g), 63, '0'), '0x' || repeat('9', 40), g, 'CONFIRMED', 100000, 1000000000,
             4000000000000000, 4000000000000000, 60000000000000, 60000, g, '0x6' || lpad(to_hex(g), 63, '0'),
             now() - interval '60 days' - g * interval '1 minute', now() - interval '60 days'
      FROM generate_series(1, ${OLD_SWEEPS}) g`);
    await client.query(`
      INSERT INTO "DepositSweepItem" ("id", "sweepId", "address", "expectedWei", "sweptWei")
      SELECT gen_random_uuid(), s."id", '0xd' || lpad(to_hex(s."nonce"), 39, '0'), s."expectedWei", s."sweptWei" FROM "DepositSweep" s`);
    await client.query(`
      INSERT INTO "Payment" ("id", "txHash", "depositAddress", "sweepId", "source", "status", "amount", "blockNumber", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), '0xa' || lpad(to_hex(g), 63, '0'), '0xd' || lpad(to_hex(1 + g % ${OLD_SWEEPS}), 39, '0'),
             ('00000000-0000-4000-8000-' || lpad(to_hex(1 + g % ${OLD_SWEEPS}), 12, '0'))::uuid, 'INDEXED', 'COUNTED', 1000000000000000, g,
             now() - interval '60 days', now() - interval '60 days'
      FROM generate_series(1, ${HISTORY}) g`);
    // The open work: three deposits waiting at two addresses, one sweep sent, two of the last month.
    await client.query(`
      INSERT INTO "Payment" ("id", "txHash", "depositAddress", "source", "status", "amount", "blockNumber", "createdAt", "updatedAt")
      VALUES (gen_random_uuid(), '0xb1', '0x' || repeat('e', 40), 'INDEXED', 'COUNTED', 1000, 1, now(), now()),
             (gen_random_uuid(), '0xb2', '0x' || repeat('e', 40), 'INDEXED', 'PENDING', 2000, 2, now(), now()),
             (gen_random_uuid(), '0xb3', '0x' || repeat('f', 40), 'INDEXED', 'LATE', 4000, 3, now(), now())`);
    await client.query(`
      INSERT INTO "DepositSweep" ("id", "txHash", "fromAddress", "nonce", "status", "gasLimit", "maxFeePerGasWei", "expectedWei", "sweptWei", "feeWei", "createdAt", "updatedAt")
      VALUES (gen_random_uuid(), '0xc1', '0x' || repeat('9', 40), 9001, 'SENT', 100000, 1000000000, 7000, NULL, NULL, now(), now()),
             (gen_random_uuid(), '0xc2', '0x' || repeat('9', 40), 9002, 'CONFIRMED', 100000, 1000000000, 500, 500, 70, now() - interval '2 hours', now()),
             (gen_random_uuid(), '0xc3', '0x' || repeat('9', 40), 9003, 'CONFIRMED', 100000, 1000000000, 300, 300, 30, now() - interval '3 days', now())`);
    const admin = await client.query<{ id: string }>(`
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "isAdmin", "updatedAt")
      VALUES (gen_random_uuid(), 'Admin', 'admin-deposits@example.com', 'x', 'admin-deposits', true, now()) RETURNING "id"`);
    adminCookie = (await openSession(env.runtime, admin.rows[0]!.id)).cookie;
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  await env?.close();
});

async function recorded<T>(run: Parameters<typeof appReads<T>>[1]) {
  const read = await appReads({ url, runtime: env.runtime, tables: TABLES, bound: BOUND }, run);
  expect(read.statements).toBeGreaterThan(0);
  return read;
}

describe('what the deposit figures read', () => {
  it('the summary: the deposits waiting and the sweeps of the last 30 days', async () => {
    const { result: body, tooMuch } = await recorded(async (app) => (await request(app).get('/api/admin/deposits').set('Cookie', adminCookie)).body as Record<string, unknown>);
    expect(body).toMatchObject({ unswept: { wei: '7000', addresses: 2 }, last24h: { sweeps: 2, swept: { wei: '500' }, gas: { wei: '70' } }, last30d: { sweeps: 3, swept: { wei: '800' } }, sweepsWaiting: 1 });
    expect(tooMuch).toEqual([]);
  });

  it('a page of sweeps, however many there were', async () => {
    const { result: body, tooMuch } = await recorded(async (app) => (await request(app).get('/api/admin/deposits/sweeps').set('Cookie', adminCookie)).body as unknown[]);
    expect(body).toHaveLength(50);
    expect(tooMuch).toEqual([]);
  });

  it('the metrics scrape', async () => {
    const { result: text, tooMuch } = await recorded(async (app) => (await request(app).get('/metrics')).text);
    expect(text).toMatch(/^shop_deposits_unswept_wei 7000$/m);
    expect(text).toMatch(/^shop_deposit_sweep_gas_wei_24h 70$/m);
    expect(tooMuch).toEqual([]);
  });
});
