import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { Prisma } from '../infra/db.ts';
import { jobIds } from '../infra/queues.ts';

/**
 * A payment is one transfer: its transaction, the shop's address it reached and the token
 * Transfer log that delivered it (null for a value transfer). One transaction whose two
 * Transfer logs pay two orders is two payments; the same log is never recorded twice.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;
const transfer = (txHash: string, depositAddress: string | null, logIndex: number | null) =>
  env.runtime.db.payment.create({
    data: { txHash, depositAddress, logIndex, asset: logIndex === null ? 'ETH' : 'USDC', source: 'INDEXED', status: 'PENDING', amount: new Prisma.Decimal(1_000_000) },
  });
const refused = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (err: unknown) => (err instanceof Prisma.PrismaClientKnownRequestError ? err.code : String(err)),
  );

describe('the payment key (txHash, depositAddress, logIndex)', () => {
  it("accepts two Transfer logs of one transaction, to two orders' deposit addresses or to one", async () => {
    const tx = hex(32);
    const [a, b] = [hex(20), hex(20)];
    const first = await transfer(tx, a, 3);
    const second = await transfer(tx, b, 7);
    const again = await transfer(tx, a, 9);
    expect(new Set([first.id, second.id, again.id]).size).toBe(3);
    expect(await env.runtime.db.payment.count({ where: { txHash: tx } })).toBe(3);
  });

  it('refuses the same log twice, and a value transfer twice to the same address (null is not distinct)', async () => {
    const tx = hex(32);
    const address = hex(20);
    await transfer(tx, address, 4);
    expect(await refused(transfer(tx, address, 4))).toBe('P2002');
    await transfer(tx, address, null);
    expect(await refused(transfer(tx, address, null))).toBe('P2002');
    await transfer(tx, null, null);
    expect(await refused(transfer(tx, null, null))).toBe('P2002');
    expect(await env.runtime.db.payment.count({ where: { txHash: tx } })).toBe(3);
  });

  it('refuses a token transfer recorded without its log beside the same transfer with it (log null and log 0 are one Transfer counted twice)', async () => {
    // Review of issue 37 step 2: a buyer's report knows only the hash, never the log. If a
    // token payment can be keyed with a null log, the report's row and the indexer's row
    // (log 0) are two payments of one Transfer, each verified by readTransfer's sum.
    const tx = hex(32);
    const address = hex(20);
    await transfer(tx, address, 0);
    const withoutLog = env.runtime.db.payment.create({
      data: { txHash: tx, depositAddress: address, logIndex: null, asset: 'USDC', source: 'REPORTED', status: 'PENDING', amount: new Prisma.Decimal(1_000_000) },
    });
    expect(await refused(withoutLog)).not.toBe('accepted');
    expect(await env.runtime.db.payment.count({ where: { txHash: tx } })).toBe(1);
  });

  it("names each log's verification job apart, and a value transfer's as before logs were keyed", () => {
    const tx = hex(32);
    const address = hex(20);
    expect(jobIds.verify(tx, address, 3)).not.toBe(jobIds.verify(tx, address, 7));
    expect(jobIds.verify(tx, address, null)).toBe(`verify-${tx}-${address}`);
    expect(jobIds.verify(tx)).toBe(`verify-${tx}`);
  });
});
