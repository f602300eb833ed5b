import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBalancesEqualLedger as expectBalancesEqualBooks } from '../../../scripts/testing/books.ts';
import { randomInt } from 'node:crypto';
import { applyLedger, exchangeBalance, UserError, Prisma, rejectCashout, requestCashout } from '../index.ts';
import { createCoreTestKit, type CoreTestKit } from '../../../scripts/testing/core-kit.ts';

// Anvil's third dev account (the receiving address is the second).
const PAYOUT_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

let kit: CoreTestKit;
beforeAll(async () => {
  kit = await createCoreTestKit();
});
afterAll(async () => {
  await kit?.close();
});

const expectBalancesEqualLedger = (userId: string) => expectBalancesEqualBooks(kit.db, userId);

describe('the ledger', () => {
  it('keeps balances equal to the ledger through a random sequence of operations', async () => {
    const users = await Promise.all([0, 1, 2].map(() => kit.createUser()));
    for (let step = 0; step < 150; step++) {
      const user = users[randomInt(users.length)]!;
      const op = randomInt(5);
      try {
        if (op <= 1) {
          const cents = randomInt(1, 5000);
          await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: new Prisma.Decimal(cents).dividedBy(100), kind: 'DAILY_CREDIT', idempotencyKey: `rand:${step}` }]);
        } else if (op === 2) {
          await exchangeBalance(kit.db, user.id);
        } else if (op === 3) {
          const { cashoutId } = await requestCashout(kit.db, kit.env.config, { userId: user.id, wallet: PAYOUT_WALLET });
          if (randomInt(2)) await rejectCashout(kit.db, cashoutId);
        } else {
          // Replaying an earlier operation's key changes nothing.
          await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '999', kind: 'DAILY_CREDIT', idempotencyKey: `rand:${randomInt(step + 1)}` }]);
        }
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
      }
    }
    for (const u of users) await expectBalancesEqualLedger(u.id);
  });

  it('refuses an overdraft without writing anything', async () => {
    const user = await kit.createUser({});
    await expect(
      applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '-1.00', kind: 'ADMIN_ADJUSTMENT', idempotencyKey: `overdraft:${user.id}` }]),
    ).rejects.toThrow(/balance too low/);
    expect(await kit.db.ledgerEntry.count({ where: { userId: user.id } })).toBe(0);
  });
});
