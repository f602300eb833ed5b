import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { newReferralCode } from '../accounts/referral-code.ts';
import { Prisma } from '../infra/db.ts';
import { refundTransfer } from '../payments/transfer-states.ts';
import { requestPayoutCheck } from './payout-checks.ts';

/**
 * A refund owes back what arrived, in the asset it arrived in, and its payout must
 * deliver that asset's amount: nothing is converted to ETH on the way.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

describe('a refund in its transfer’s asset', () => {
  it('of a USDC transfer is 25 USDC (its smallest units), and its payout check expects 25 USDC', async () => {
    const { db } = env.runtime;
    const admin = await db.user.create({ data: { name: 'A', email: `${hex(4)}@example.com`, passwordHash: '!', isAdmin: true, referralCode: newReferralCode() } });
    const payer = hex(20);
    const payment = await db.payment.create({
      data: {
        txHash: hex(32), logIndex: 2, asset: 'USDC', depositAddress: hex(20), source: 'INDEXED', status: 'UNRESOLVED',
        fromAddress: payer, payerAddress: payer, amount: new Prisma.Decimal(25_000_000), usdValue: new Prisma.Decimal('25.00'), blockNumber: 1n, blockHash: hex(32),
      },
    });

    const refunded = await refundTransfer(db, { paymentId: payment.id, actorId: admin.id });
    expect(refunded).toMatchObject({ refundId: expect.any(String) });
    const refund = await db.refund.findUniqueOrThrow({ where: { id: (refunded as { refundId: string }).refundId } });
    expect({ asset: refund.asset, amount: refund.amount.toFixed(0), wallet: refund.wallet }).toEqual({ asset: 'USDC', amount: '25000000', wallet: payer });

    const { checkId } = await requestPayoutCheck(
      { db, config: env.config, currentPrice: async () => '3000' },
      { kind: 'refund', id: refund.id, txHash: hex(32), actorId: admin.id },
    );
    const check = await db.payoutCheck.findUniqueOrThrow({ where: { id: checkId } });
    expect({ asset: check.asset, expected: check.expectedAmount.toFixed(0) }).toEqual({ asset: 'USDC', expected: '25000000' });
  });
});
