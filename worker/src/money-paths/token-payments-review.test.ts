import { parseAbi, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenTransferRequest } from '../../../core/src/rails/erc20/index.ts';
import { tokenBySymbol, type Token } from '@shop/core/contract';
import { mintMockToken } from '../../../scripts/lib/token-mocks.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * Token payments read as a thief would: who picks each input of a money path (the sender,
 * the amount, the log) and what the shop must still hold to when they pick it badly.
 */
const USDC = tokenBySymbol('USDC');
const [, , , , exchange, , stranger, victim] = ANVIL_ACCOUNTS;
const usd = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10n ** 4n; // 6 decimals

let kit: PaymentKit;
let buyer: TestUser;

beforeAll(async () => {
  kit = await createPaymentKit({ env: { ACCEPTED_ASSETS: 'ETH,USDC', PRICE_CACHE_SECONDS: '0', SWEEPER_PRIVATE_KEY: '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97' } });
  buyer = await kit.createUser({ name: 'Buyer' });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.close();
});

async function mined(hash: Hash): Promise<Hash> {
  const receipt = await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success') throw new Error(`${hash} reverted`);
  await kit.runIndexer();
  return hash;
}

async function sendToken(token: Token, from: Address, to: Address, amount: bigint): Promise<Hash> {
  return mined(await kit.chain.wallet.sendTransaction({ account: from, chain: null, ...tokenTransferRequest(token, to, amount) }));
}

describe('token payments, read as a thief would', () => {
  it('a zero-amount USDC Transfer log with a made-up sender (transferFrom of 0 needs no allowance) makes no payment, as a zero-value ETH transaction makes none', async () => {
    const order = await kit.placeOrder(buyer);
    await (await kit.as(buyer)).get(`/api/orders/${order.id}`);
    // The stranger writes a Transfer log "from" the victim (any address: the buyer's own, a
    // look-alike of it) to the order's deposit address, moving nothing.
    const hash = await mined(
      await kit.chain.wallet.writeContract({
        account: stranger,
        chain: null,
        address: USDC.address,
        abi: parseAbi(['function transferFrom(address from, address to, uint256 value) returns (bool)']),
        functionName: 'transferFrom',
        args: [victim, order.depositAddress, 0n],
      }),
    );
    // A real payment in the same kind of block is recorded (so the indexer has read past it).
    const real = await sendToken(USDC, exchange, order.depositAddress, usd(25));
    await waitFor('the real payment recorded', async () => kit.db.payment.findFirst({ where: { txHash: real.toLowerCase() } }));
    await kit.waitForStatus(order.id, 'PAID');
    expect(await kit.db.payment.findMany({ where: { txHash: hash.toLowerCase() }, select: { status: true, fromAddress: true, payerAddress: true, reason: true } })).toEqual([]);
  });

  it("USDC sent to the receiving address is valued (a dollar a token on the peg): a $5 refund of it is within what one admin may pay alone, never 'cannot be valued (no ETH price)'", async () => {
    await mintMockToken(kit.env.anvil!.rpcUrl, USDC, [stranger], usd(100));
    const hash = await sendToken(USDC, stranger, kit.receiving, usd(5));
    const payment = await waitFor('the USDC to the receiving address', async () => {
      const p = await kit.db.payment.findFirst({ where: { txHash: hash.toLowerCase() } });
      return p && p.status !== 'PENDING' ? p : null;
    });
    expect(payment).toMatchObject({ status: 'UNRESOLVED', asset: 'USDC', amount: expect.anything() });
    const admin = await kit.createUser({ name: 'Refunding admin', isAdmin: true });
    const created = await (await kit.as(admin)).post(`/api/admin/payments/${payment.id}/refund`).send({});
    expect(created.status).toBe(201);
    // $5 is far below the approval threshold ($500): one admin pays it.
    expect(created.body.message).toBe('Refund requested.');
    const refund = await kit.db.refund.findFirstOrThrow({ where: { paymentId: payment.id } });
    // Never valued when it arrived (it named no order), as an ETH transfer of that kind: its worth is read for the approval rule.
    expect({ asset: refund.asset, amount: refund.amount.toFixed(0), amountUsd: refund.amountUsd }).toEqual({ asset: 'USDC', amount: '5000000', amountUsd: null });
    expect(await kit.db.approval.count({ where: { subjectId: refund.id } })).toBe(0);
  });
});
