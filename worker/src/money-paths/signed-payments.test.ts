import { bytesToHex, hashTypedData, numberToHex, parseEther, parseGwei } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationDomain, transferAuthorizationTypedData, type TransferAuthorization } from '@shop/core/contract';
import { tokenTransferRequest } from '../../../core/src/rails/erc20/index.ts';
import { mintMockToken, TOKEN_MOCK_OWNER } from '../../../scripts/lib/token-mocks.ts';
import { deploySmartWallet } from '../../../scripts/testing/smart-wallet.ts';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';
import { RELAY_KEY, signedPayments, USDC, usd, type Signed } from '../testing/signed-payments.ts';

/**
 * Paying in USDC with one signature (issue 38): a buyer who holds USDC and no ETH signs an
 * EIP-3009 authorization; the shop checks it, sends it from its relay wallet, pays the gas,
 * and the order is paid by the Transfer to its deposit address. Every refusal happens
 * before anything is sent; a payment that fails on chain costs the shop gas, is recorded,
 * and limits the buyer.
 */
const relayAddress = privateKeyToAccount(RELAY_KEY).address;
const [, , , , , , stranger] = ANVIL_ACCOUNTS;

let kit: PaymentKit;
const { walletWithUsdc, usdcOf, sign, post, usdcQuote, authorization, relayIn, untilPaid, budgetSpent } = signedPayments(() => kit);

beforeAll(async () => {
  kit = await createPaymentKit({
    env: {
      ACCEPTED_ASSETS: 'ETH,USDC',
      RELAY_PRIVATE_KEY: RELAY_KEY,
      RELAY_RETRY_MS: '200',
      RELAY_REPLACE_AFTER_MS: '1500',
      RELAY_FAILURES_PER_USER_PER_DAY: '1',
      SWEEP_GAS_BUDGET_ETH: '0.05',
    },
  });
  await kit.runIndexer();
});
afterAll(async () => {
  await kit?.chain.setAutomine(true).catch(() => {});
  await kit?.close();
});











describe('paying in USDC with one signature', () => {
  it('a buyer with USDC and no ETH signs once: the shop sends it and pays the gas, the order is PAID for exactly the quote', async () => {
    const buyer = await kit.createUser({ name: 'Signer' });
    const wallet = await walletWithUsdc(100);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    expect(quote.signedTransfer).toEqual({ domain: { name: 'USD Coin', version: '2', chainId: 1, verifyingContract: USDC.address } });
    const relayEthBefore = await kit.chain.wallet.getBalance({ address: relayAddress });

    const res = await post(buyer, order.id, await sign(wallet, quote));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'RECEIVED', message: 'Signature received: the shop is sending your payment' });
    const row = await relayIn(res.body._id, ['CONFIRMED']);
    await untilPaid(order.id);

    // The buyer paid exactly the quote and spent no ETH (holding none); the shop paid the gas, recorded as a cost.
    expect(await usdcOf(wallet.address)).toBe(usd(100) - BigInt(quote.amount));
    expect(await kit.chain.wallet.getBalance({ address: wallet.address })).toBe(0n);
    expect(row.txHashes).toEqual([row.txHash]);
    expect(row.feeWei!.gt(0)).toBe(true);
    expect(BigInt(row.feeWei!.toFixed(0))).toBe(relayEthBefore - (await kit.chain.wallet.getBalance({ address: relayAddress })));
    expect(row.feeUsd!.gt(0)).toBe(true);
    const payments = await kit.db.payment.findMany({ where: { orderId: order.id } });
    expect(payments.map((p) => [p.asset, p.amount?.toFixed(0), p.txHash, p.status])).toEqual([['USDC', quote.amount, row.txHash, 'COUNTED']]);
    // The buyer's order page says where the signed payment is.
    const detail = (await (await kit.as(buyer)).get(`/api/orders/${order.id}`)).body;
    expect(detail.authorization).toMatchObject({ _id: row.id, status: 'CONFIRMED', txHash: row.txHash, asset: 'USDC' });
  });

  it('refuses, before anything is sent, an authorization that is expired, for another address, too small, signed by someone else, or reused', async () => {
    const buyer = await kit.createUser({ name: 'Refused' });
    const wallet = await walletWithUsdc(100);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const cases: [string, () => Promise<Signed>, number, RegExp][] = [
      ['expired', () => sign(wallet, quote, { validBefore: now - 10n }), 400, /has expired: sign again/],
      ['ending too soon', () => sign(wallet, quote, { validBefore: now + 30n }), 400, /expires in less than 2 minutes/],
      ['not valid yet', () => sign(wallet, quote, { validAfter: now + 3600n }), 400, /not valid yet/],
      ['to another address', () => sign(wallet, quote, { to: stranger }), 400, /not this order's deposit address/],
      ['too small', () => sign(wallet, quote, { value: BigInt(quote.amount) - 10_000n }), 400, /moves 24\.99 USDC; this order needs 25\.00 USDC: sign again for that amount/],
      ['too large', () => sign(wallet, quote, { value: BigInt(quote.amount) * 2n }), 400, /not more/],
      [
        'signed by someone else',
        async () => {
          const other = privateKeyToAccount(generatePrivateKey());
          const theirs = await sign(other, quote);
          return { message: { ...theirs.message, from: wallet.address }, signature: theirs.signature };
        },
        400,
        /is not 0x[0-9a-f]{40}'s signature of this authorization/,
      ],
    ];
    for (const [what, make, status, message] of cases) {
      const res = await post(buyer, order.id, await make());
      expect({ what, status: res.status, message: res.body.message }).toMatchObject({ what, status, message: expect.stringMatching(message) });
    }
    // A nonce used on chain already (the buyer sent the authorization elsewhere, or cancelled it).
    const used = await sign(wallet, quote);
    const cancel = await kit.chain.wallet.writeContract({
      account: stranger,
      chain: null,
      address: USDC.address,
      abi: [{ type: 'function', name: 'transferWithAuthorization', stateMutability: 'nonpayable', inputs: [{ name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' }, { name: 'signature', type: 'bytes' }], outputs: [] }],
      functionName: 'transferWithAuthorization',
      args: [used.message.from, used.message.to, used.message.value, used.message.validAfter, used.message.validBefore, used.message.nonce, used.signature],
    });
    await kit.chain.wallet.waitForTransactionReceipt({ hash: cancel, pollingInterval: 50 });
    // Anyone may send it (here a stranger did): it paid the order, and the shop will not send it again.
    await untilPaid(order.id);
    const reused = await post(buyer, (await kit.placeOrder(buyer)).id, used);
    expect(reused.status).toBe(400);
    expect(reused.body.message).toMatch(/not this order's deposit address/);
    const other = await kit.placeOrder(buyer);
    const otherQuote = await usdcQuote(buyer, other.id);
    const sameNonce = await sign(wallet, otherQuote, { nonce: used.message.nonce });
    const res = await post(buyer, other.id, sameNonce);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This authorization was used or cancelled already: sign again');
    expect(await kit.db.paymentAuthorization.count({ where: { userId: buyer.id } })).toBe(0);
  });

  it("a smart-contract wallet's authorization: checked by its ERC-1271 answer, sent with the signature as bytes", async () => {
    const buyer = await kit.createUser({ name: 'Safe' });
    // Anvil's dev account #5 owns the wallet; its key signs the typed data's digest, which the wallet's isValidSignature recovers.
    const owner = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 5 });
    const smart = await deploySmartWallet(kit.env.anvil!.rpcUrl, owner.address, 0n);
    await mintMockToken(kit.env.anvil!.rpcUrl, USDC, [smart.address], usd(25));
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const message: TransferAuthorization = { from: smart.address, to: quote.payTo, value: BigInt(quote.amount), validAfter: 0n, validBefore: BigInt(Math.floor(Date.parse(quote.expiresAt) / 1000)), nonce: bytesToHex(crypto.getRandomValues(new Uint8Array(32))) };
    const digest = hashTypedData(transferAuthorizationTypedData(authorizationDomain(USDC, 1)!, message));
    // Someone else's signature first: the wallet's ERC-1271 answer refuses it.
    const forged = await post(buyer, order.id, { message, signature: await privateKeyToAccount(generatePrivateKey()).sign({ hash: digest }) });
    expect(forged.status).toBe(400);
    expect(forged.body.message).toBe(`The signature is not ${smart.address.toLowerCase()}'s signature of this authorization`);
    const res = await post(buyer, order.id, { message, signature: await owner.sign({ hash: digest }) });
    expect(res.status).toBe(202);
    await relayIn(res.body._id, ['CONFIRMED']);
    await untilPaid(order.id);
    expect(await usdcOf(smart.address)).toBe(0n);
  });

  it('refuses a blocklisted buyer, and one whose wallet holds less than it signs for', async () => {
    const buyer = await kit.createUser({ name: 'Blocked' });
    const wallet = await walletWithUsdc(100);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const blacklist = [{ type: 'function', name: 'blacklist', stateMutability: 'nonpayable', inputs: [{ name: 'account', type: 'address' }], outputs: [] }] as const;
    const hash = await kit.chain.wallet.writeContract({ account: TOKEN_MOCK_OWNER, chain: null, address: USDC.address, abi: blacklist, functionName: 'blacklist', args: [wallet.address] });
    await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const blocked = await post(buyer, order.id, await sign(wallet, quote));
    expect(blocked.status).toBe(400);
    expect(blocked.body.message).toBe(`${wallet.address.toLowerCase()} is on the USDC issuer's blocklist: its USDC cannot move`);

    const poor = await walletWithUsdc(10);
    const short = await post(buyer, order.id, await sign(poor, quote));
    expect(short.status).toBe(400);
    expect(short.body.message).toBe(`${poor.address.toLowerCase()} holds 10.00 USDC, less than the 25.00 USDC it authorizes`);
    expect(await kit.db.paymentAuthorization.count({ where: { userId: buyer.id } })).toBe(0);
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
  });

  it('USDC moved away after the check: the relay fails on chain, the order stays unpaid, the gas is recorded, the next try is limited', async () => {
    const buyer = await kit.createUser({ name: 'Mover' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    await kit.chain.setAutomine(false);
    try {
      const res = await post(buyer, order.id, await sign(wallet, quote));
      expect(res.status).toBe(202);
      const sent = await relayIn(res.body._id, ['SENT']);
      // The buyer moves the USDC away in the same block, ahead of the shop's transaction (a higher tip).
      await kit.chain.test.setBalance({ address: wallet.address, value: parseEther('1') });
      await kit.chain.wallet.sendTransaction({ account: wallet, chain: null, ...tokenTransferRequest(USDC, stranger, usd(25)), gas: 100_000n, maxPriorityFeePerGas: parseGwei('50'), maxFeePerGas: parseGwei('200') });
      await kit.chain.mine(1);
      const failed = await relayIn(sent.id, ['FAILED']);
      expect(failed.reason).toMatch(/^Reverted on chain in block \d+ \(ERC20: transfer amount exceeds balance\); the shop paid [\d.]+ ETH of gas$/);
      expect(failed.buyerFault).toBe(true);
      expect(failed.feeWei!.gt(0)).toBe(true);
    } finally {
      await kit.chain.setAutomine(true);
    }
    await kit.runIndexer();
    expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    const detail = (await (await kit.as(buyer)).get(`/api/orders/${order.id}`)).body;
    expect(detail.authorization).toMatchObject({ status: 'FAILED', message: expect.stringMatching(/^Your signed payment failed on chain/) });
    // The next try is refused for a day (RELAY_FAILURES_PER_USER_PER_DAY=1 here), with another wallet too.
    const refill = await walletWithUsdc(25);
    const limited = await post(buyer, order.id, await sign(refill, quote));
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Your last 1 signed payments failed because the USDC was no longer in the wallet when the shop sent them\. Pay with a transfer from your wallet, or sign again after \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  });

  it('a relay transaction not mined in time is replaced at a higher fee on the same nonce; the replacement pays', async () => {
    const buyer = await kit.createUser({ name: 'Patient' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    await kit.chain.setAutomine(false);
    let replaced;
    try {
      const res = await post(buyer, order.id, await sign(wallet, quote));
      const first = await relayIn(res.body._id, ['SENT']);
      replaced = await waitFor('the replacement', async () => {
        const row = await authorization(first.id);
        return row.txHashes.length >= 2 ? row : null;
      });
      expect(replaced.relayNonce).toBe(first.relayNonce);
      expect(replaced.maxFeePerGasWei!.gt(first.maxFeePerGasWei!)).toBe(true);
      expect(replaced.maxPriorityFeePerGasWei!.gt(first.maxPriorityFeePerGasWei!)).toBe(true);
      await kit.chain.mine(1);
    } finally {
      await kit.chain.setAutomine(true);
    }
    const done = await relayIn(replaced.id, ['CONFIRMED']);
    await untilPaid(order.id);
    // One of the two was mined (the node keeps the replacement): only one pays, once.
    expect(replaced.txHashes).toContain(done.txHash);
    const payments = await kit.db.payment.findMany({ where: { orderId: order.id } });
    expect(payments).toHaveLength(1);
    expect(await usdcOf(wallet.address)).toBe(0n);
  });

  it('an order paid by other means while its signed payment waits: the shop never sends it (no overpayment at its gas)', async () => {
    const buyer = await kit.createUser({ name: 'Twice' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const budget = await budgetSpent();
    let id: string;
    try {
      const res = await post(buyer, order.id, await sign(wallet, quote));
      expect(res.status).toBe(202);
      id = res.body._id;
      await waitFor('the relay to wait', async () => (await authorization(id)).reason);
      // A cancel is refused only once the signed payment is sent; here it waits, and the buyer pays from an exchange.
      const hash = await kit.chain.wallet.sendTransaction({ account: stranger, chain: null, ...tokenTransferRequest(USDC, quote.payTo, BigInt(quote.amount)) });
      await kit.chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      await untilPaid(order.id);
    } finally {
      await budget.free();
    }
    const dropped = await relayIn(id, ['DROPPED']);
    expect(dropped).toMatchObject({ reason: 'Not sent: the order no longer waits for this payment (paid meanwhile, cancelled or expired)', buyerFault: false, txHash: null, feeWei: null });
    expect(await usdcOf(wallet.address)).toBe(usd(25));
  });

  it("above RELAY_MAX_GAS_USD at the network's fee: the relay waits and says why, then sends when the fee falls", async () => {
    const buyer = await kit.createUser({ name: 'Dear' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const baseFee = async (gwei: string) => {
      await kit.chain.test.request({ method: 'anvil_setNextBlockBaseFeePerGas' as never, params: [numberToHex(parseGwei(gwei))] as never });
      await kit.chain.mine(1);
    };
    // 12 gwei: under the sweeps' ceiling (30), but this payment's worst case at ETH $3,000 is above $3.
    await baseFee('12');
    let id: string;
    try {
      const res = await post(buyer, order.id, await sign(wallet, quote));
      expect(res.status).toBe(202);
      id = res.body._id;
      const waiting = await waitFor('the relay to say why it waits', async () => (await authorization(id)).reason);
      expect(waiting).toMatch(/^Relaying waits: this payment's gas may cost \$\d+\.\d\d at the current fee \([\d.]+ ETH\), above RELAY_MAX_GAS_USD \(\$3\.00\)$/);
      expect((await authorization(id)).status).toBe('RECEIVED');
    } finally {
      await baseFee('1');
    }
    await relayIn(id, ['CONFIRMED']);
    await untilPaid(order.id);
  });

  it('the gas budget spent: the relay waits and says why, then sends once the budget frees', async () => {
    const buyer = await kit.createUser({ name: 'Waiting' });
    const wallet = await walletWithUsdc(25);
    const order = await kit.placeOrder(buyer);
    const quote = await usdcQuote(buyer, order.id);
    const budget = await budgetSpent();
    let row;
    try {
      const res = await post(buyer, order.id, await sign(wallet, quote));
      expect(res.status).toBe(202);
      row = await waitFor('the relay to say why it waits', async () => {
        const r = await authorization(res.body._id);
        return r.reason ? r : null;
      });
      expect(row.status).toBe('RECEIVED');
      expect(row.reason).toMatch(/^Relaying waits: the gas budget of 0\.05 ETH for 24 hours is spent \([\d.]+ ETH used by sweeps and relays\)/);
      expect(await kit.orderStatus(order.id)).toBe('PENDING_PAYMENT');
    } finally {
      await budget.free();
    }
    await relayIn(row.id, ['CONFIRMED']);
    await untilPaid(order.id);
  });
});
