import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { notFoundRetryMs, verifyPayment } from './verifier.ts';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ chain: true });
});
afterAll(async () => {
  await env?.close();
});

describe('a reported hash the node does not know', () => {
  it('is looked up every 3 s while fresh, then less and less often (at most once a minute), and given up after an hour', async () => {
    const { db } = env.runtime;
    const payment = await db.payment.create({ data: { txHash: `0x${randomBytes(32).toString('hex')}`, source: 'REPORTED' } });
    const deps = { ...env.runtime, currentAnswer: async () => 300_000_000_000n };
    const at = (minutes: number) => new Date(payment.createdAt.getTime() + minutes * 60_000);
    const waits = [];
    for (const minutes of [0, 0.5, 2, 10, 59]) {
      const result = await verifyPayment(deps, payment.id, at(minutes));
      expect(result.state).toBe('wait');
      waits.push(result.state === 'wait' ? result.retryInMs : 0);
    }
    expect(waits).toEqual([3_000, 7_500, 30_000, 60_000, 60_000]);
    const given = await verifyPayment(deps, payment.id, at(61));
    expect(given).toMatchObject({ state: 'final', status: 'REJECTED', reason: 'Transaction not found on chain' });
  });

  it('costs the node about 75 lookups over that hour', () => {
    let t = 0;
    let lookups = 0;
    while (t < 3_600_000) {
      t += notFoundRetryMs(t);
      lookups++;
    }
    expect(lookups).toBeLessThan(80);
  });
});
