import { bytesToHex, erc20Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { Prisma } from '@shop/core';
import { authorizationDomain, tokenBySymbol, transferAuthorizationTypedData, type TransferAuthorization } from '@shop/core/contract';
import { mintMockToken } from '../../../scripts/lib/token-mocks.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import type { TestUser } from '../../../api/src/testing/api-test-kit.ts';
import type { PaymentKit } from './payment-kit.ts';

/**
 * What the signed-USDC suites (money-paths/signed-payments*.test.ts) share: a buyer's
 * wallet with USDC and no ETH, the authorization signed as the pay page signs it, posted
 * as the pay page posts it, and the waits for the relay's row and the order.
 */
export const USDC = tokenBySymbol('USDC');
/** Anvil's dev account #9, the relay's wallet as `npm start` gives it (DEV_RELAY_PRIVATE_KEY). */
export const RELAY_KEY = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
/** USDC in its smallest units (6 decimals). */
export const usd = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10n ** 4n;
export const RELAY_ENDED = ['CONFIRMED', 'FAILED', 'DROPPED'];

export type Signed = { message: TransferAuthorization; signature: Hex };

/** The helpers over the suite's kit (`kit()`: set in its beforeAll). */
export function signedPayments(kit: () => PaymentKit) {
  /** A wallet of its own holding `dollars` of USDC and no ETH at all. */
  async function walletWithUsdc(dollars: number): Promise<PrivateKeyAccount> {
    const account = privateKeyToAccount(generatePrivateKey());
    await mintMockToken(kit().env.anvil!.rpcUrl, USDC, [account.address], usd(dollars));
    return account;
  }

  const usdcOf = (address: Address) => kit().chain.wallet.readContract({ address: USDC.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] });

  /** What the pay page signs for an order's USDC quote (valid until the quote expires), with `change` to shape it. */
  async function sign(signer: PrivateKeyAccount, quote: { amount: string; payTo: string; expiresAt: string }, change: Partial<TransferAuthorization> = {}): Promise<Signed> {
    const message: TransferAuthorization = {
      from: signer.address,
      to: quote.payTo as Address,
      value: BigInt(quote.amount),
      validAfter: 0n,
      validBefore: BigInt(Math.floor(Date.parse(quote.expiresAt) / 1000)),
      nonce: bytesToHex(crypto.getRandomValues(new Uint8Array(32))),
      ...change,
    };
    return { message, signature: await signer.signTypedData(transferAuthorizationTypedData(authorizationDomain(USDC, 1)!, message)) };
  }

  /** POST /api/orders/:id/authorization as the pay page sends it (numbers as decimal strings). */
  function post(user: TestUser, orderId: string, signed: Signed) {
    const m = signed.message;
    return kit()
      .as(user)
      .then((agent) =>
        agent.post(`/api/orders/${orderId}/authorization`).send({
          asset: 'USDC',
          from: m.from,
          to: m.to,
          value: m.value.toString(),
          validAfter: m.validAfter.toString(),
          validBefore: m.validBefore.toString(),
          nonce: m.nonce,
          signature: signed.signature,
        }),
      );
  }

  async function usdcQuote(user: TestUser, orderId: string) {
    const res = await (await kit().as(user)).get(`/api/orders/${orderId}`);
    expect(res.status).toBe(200);
    return res.body.quotes.find((q: { asset: string }) => q.asset === 'USDC');
  }

  const authorization = (id: string) => kit().db.paymentAuthorization.findUniqueOrThrow({ where: { id } });

  /** The relay's row once in one of `statuses`. */
  function relayIn(id: string, statuses: string[]) {
    return waitFor(`authorization ${id} in ${statuses.join('/')}`, async () => {
      const row = await authorization(id);
      return statuses.includes(row.status) ? row : null;
    });
  }

  /** Indexes (and with `mine`, mines a block a step) until the order is PAID: the relay's transaction found at its deposit address. */
  async function untilPaid(orderId: string, opts: { mine?: boolean } = {}) {
    await waitFor(`order ${orderId} to be PAID`, async () => {
      if (opts.mine) await kit().chain.mine(1);
      await kit().runIndexer();
      return (await kit().orderStatus(orderId)) === 'PAID';
    });
  }

  /**
   * Today's sweeps spent the gas budget the relay shares (SWEEP_GAS_BUDGET_ETH=0.05: a failed
   * sweep's fee): the relay holds an authorization (RECEIVED, saying why) until `free`.
   */
  async function budgetSpent(): Promise<{ free: () => Promise<void> }> {
    const spent = await kit().db.depositSweep.create({
      data: { txHash: bytesToHex(crypto.getRandomValues(new Uint8Array(32))), fromAddress: ANVIL_ACCOUNTS[8].toLowerCase(), nonce: 999, status: 'FAILED', gasLimit: 1n, maxFeePerGasWei: new Prisma.Decimal(1), expectedWei: new Prisma.Decimal(0), feeWei: new Prisma.Decimal('50000000000000000') },
    });
    return { free: () => kit().db.depositSweep.delete({ where: { id: spent.id } }).then(() => undefined) };
  }

  return { walletWithUsdc, usdcOf, sign, post, usdcQuote, authorization, relayIn, untilPaid, budgetSpent };
}
