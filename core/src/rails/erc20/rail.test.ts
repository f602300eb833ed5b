import { erc20Abi, numberToHex, parseAbi, TransactionReceiptNotFoundError, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../../../scripts/lib/anvil.ts';
import { installPriceFeedMock } from '../../../../scripts/lib/price-feed-mock.ts';
import { installTokenMocks, mintMockToken } from '../../../../scripts/lib/token-mocks.ts';
import { anvilDriver } from '../../../../scripts/testing/chain.ts';
import { deployTokenTestContract } from '../../../../scripts/testing/token-contracts.ts';
import { createChainClient, type ChainClient } from '../../chain/public-client.ts';
import { blockWithTransactions } from '../../chain/rpc.ts';
import { tokenBySymbol, type Token } from '../../contract/tokens.ts';
import { ANVIL_DEV_ACCOUNTS } from '../../infra/config.ts';
import type { PublicClient } from 'viem';
import type { Rail, RailShop } from '../types.ts';
import { createTokenRail, tokenTransferRequest, type TokenBlockRead, type TokenDelivery, type TokenTransferReading } from './index.ts';

/**
 * The token rail on anvil with the mainnet-like mock USDC and USDT (scripts/lib/token-mocks.ts):
 * what a block's Transfer logs deliver to the shop, one transaction's, and a payout's.
 */
const USDC = tokenBySymbol('USDC');
const USDT = tokenBySymbol('USDT');
const [owner, receivingAddress, alice, bob, shopPayout, , , , , stranger] = ANVIL_DEV_ACCOUNTS;
const receiving = receivingAddress.toLowerCase();
// Orders' deposit addresses (nobody's keys: only tokens go there).
const depositA = '0xde000000000000000000000000000000000000a1';
const depositB = '0xde000000000000000000000000000000000000b2';
// An address that is no order's.
const elsewhere = '0x00000000000000000000000000000000000000c3';

let anvil: AnvilInstance;
let client: ChainClient;
let chain: ReturnType<typeof anvilDriver>;
let usdcRail: Rail<TokenBlockRead>;
let usdtRail: Rail<TokenBlockRead>;
let batch: Address;
let lookAlike: Address;

const shop: RailShop = {
  receiving,
  depositAddressesAmong: async (addresses) => new Set(addresses.filter((a) => a === depositA || a === depositB)),
};
const watch = { receiving, watched: [depositA, depositB] };
const batchAbi = parseAbi(['function send(address token, address[] to, uint256[] values)']);
const lookAlikeAbi = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);
const usdt = (n: bigint) => n * 10n ** 6n;

beforeAll(async () => {
  anvil = await startAnvil();
  client = createChainClient(anvil.rpcUrl);
  chain = anvilDriver(anvil.rpcUrl);
  await installPriceFeedMock(anvil.rpcUrl, { priceUsd: '3000' });
  await installTokenMocks(anvil.rpcUrl);
  const deps = { config: { chainId: 1 }, chain: client as unknown as PublicClient };
  usdcRail = createTokenRail(deps, USDC);
  usdtRail = createTokenRail(deps, USDT);
  batch = (await deployTokenTestContract(anvil.rpcUrl, 'TokenBatch', owner)).address;
  lookAlike = (await deployTokenTestContract(anvil.rpcUrl, 'LookAlikeToken', owner)).address;
  for (const token of [USDC, USDT]) await mintMockToken(anvil.rpcUrl, token, [batch], usdt(1_000n));
});

afterAll(async () => {
  await anvil?.stop();
});

/** Sends a token transfer from an unlocked account (the node signs). */
const sendToken = (token: Token, from: Address, to: string, amount: bigint) => chain.wallet.sendTransaction({ account: from, chain: null, ...tokenTransferRequest(token, to, amount) });

/** Everything `send` sends, mined together in one block; returns the block's number. */
async function inOneBlock(send: () => Promise<Hash[]>): Promise<{ block: bigint; hashes: Hash[] }> {
  await chain.setAutomine(false);
  try {
    const hashes = await send();
    await chain.mine();
    const receipts = await Promise.all(hashes.map((hash) => chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 })));
    for (const r of receipts) expect(r.status).toBe('success');
    return { block: receipts[0]!.blockNumber, hashes };
  } finally {
    await chain.setAutomine(true);
  }
}

/** What `rail` delivered to the shop in block `n`, read as the follower reads it (fetched, linked, then deliveries). */
async function deliveriesIn(rail: Rail<TokenBlockRead>, n: bigint): Promise<TokenDelivery[]> {
  const parent = await blockWithTransactions(client as unknown as PublicClient, n - 1n);
  const block = await blockWithTransactions(client as unknown as PublicClient, n);
  const run = await rail.beginBlocks(watch, parent.hash);
  const read = await (await run.fetch(block))();
  return (await rail.deliveries([{ ...block, read }], shop)).found as TokenDelivery[];
}

describe('a token rail built from its token entry', () => {
  it('says what it is: the symbol, 6 decimals, the pinned address, paid to deposit addresses', () => {
    expect(usdcRail).toMatchObject({ id: 'usdc@1', asset: 'USDC', chainId: 1, decimals: 6, tokenAddress: USDC.address, quoteBy: 'deposit-address' });
    expect(usdtRail).toMatchObject({ id: 'usdt@1', asset: 'USDT', decimals: 6, tokenAddress: USDT.address, quoteBy: 'deposit-address' });
  });
});

describe('deliveries: the Transfer logs of a block', () => {
  it('reads each Transfer to a deposit address or the receiving address as its own delivery, by transaction and log index', async () => {
    const { block, hashes } = await inOneBlock(async () => [
      await sendToken(USDC, alice, depositA, usdt(25n)),
      // One transaction, two Transfer logs: two orders paid.
      await chain.wallet.writeContract({ account: bob, chain: null, address: batch, abi: batchAbi, functionName: 'send', args: [USDC.address, [depositA, depositB], [usdt(10n), 7_500_000n]] }),
      await sendToken(USDC, bob, receiving, 1_234_567n),
    ]);
    const [direct, batched, toReceiving] = hashes as [Hash, Hash, Hash];
    const found = await deliveriesIn(usdcRail, block);
    expect(found.map(({ block: b, ...d }) => ({ ...d, block: b.number }))).toEqual([
      { hash: direct, logIndex: expect.any(Number), from: alice.toLowerCase(), payer: alice.toLowerCase(), amount: usdt(25n), viaContract: false, depositAddress: depositA, block },
      { hash: batched, logIndex: expect.any(Number), from: batch.toLowerCase(), payer: batch.toLowerCase(), amount: usdt(10n), viaContract: true, depositAddress: depositA, block },
      { hash: batched, logIndex: expect.any(Number), from: batch.toLowerCase(), payer: batch.toLowerCase(), amount: 7_500_000n, viaContract: true, depositAddress: depositB, block },
      { hash: toReceiving, logIndex: expect.any(Number), from: bob.toLowerCase(), payer: bob.toLowerCase(), amount: 1_234_567n, viaContract: false, depositAddress: null, block },
    ]);
    // The two logs of one transaction are told apart by their index in the block.
    const receipt = await client.getTransactionReceipt({ hash: batched });
    expect(found.filter((d) => d.hash === batched).map((d) => d.logIndex)).toEqual(receipt.logs.map((l) => l.logIndex));
    expect(new Set(found.map((d) => d.logIndex)).size).toBe(4);
  });

  it('never takes a look-alike contract emitting the same Transfer event, another token, or a transfer to an address not the shop’s', async () => {
    const { block } = await inOneBlock(async () => [
      await chain.wallet.writeContract({ account: alice, chain: null, address: lookAlike, abi: lookAlikeAbi, functionName: 'transfer', args: [depositA, usdt(500n)] }),
      await sendToken(USDT, alice, depositB, usdt(3n)),
      await sendToken(USDC, bob, elsewhere, usdt(40n)),
      await sendToken(USDC, alice, stranger, usdt(2n)),
    ]);
    // The look-alike's log is in the block, with the event's own signature.
    const logs = await client.getLogs({ fromBlock: block, toBlock: block, address: lookAlike });
    expect(logs).toHaveLength(1);
    expect(await deliveriesIn(usdcRail, block)).toEqual([]);
    // The USDT transfer is USDT's rail's, and only it.
    expect((await deliveriesIn(usdtRail, block)).map((d) => [d.depositAddress, d.amount])).toEqual([[depositB, usdt(3n)]]);
  });

  it('leaves out the shop’s own money: what the receiving address sends, and sweeps by its deposit forwarders', async () => {
    const { block } = await inOneBlock(async () => [await sendToken(USDC, receivingAddress, depositA, usdt(1n)), await sendToken(USDC, alice, receiving, usdt(4n))]);
    const parent = await blockWithTransactions(client as unknown as PublicClient, block - 1n);
    const linked = await blockWithTransactions(client as unknown as PublicClient, block);
    // Alice standing in for a deposit forwarder of the shop's (own money reaching the receiving address).
    const run = await usdcRail.beginBlocks({ ...watch, own: { senders: async (a) => new Set(a.filter((x) => x === alice.toLowerCase())), movedIn: async () => new Map() } }, parent.hash);
    const read = await (await run.fetch(linked))();
    expect((await usdcRail.deliveries([{ ...linked, read }], shop)).found).toEqual([]);
  });

  it('reads each block by its hash: a block a reorganization replaced is not read for what it held', async () => {
    const { block, hashes } = await inOneBlock(async () => [await sendToken(USDC, alice, depositA, usdt(6n))]);
    const before = await blockWithTransactions(client as unknown as PublicClient, block);
    const parent = await blockWithTransactions(client as unknown as PublicClient, block - 1n);
    await chain.reorg(1);
    const after = await blockWithTransactions(client as unknown as PublicClient, block);
    expect(after.hash).not.toBe(before.hash);
    const run = await usdcRail.beginBlocks(watch, parent.hash);
    // The node no longer holds the old block: an error (the follower links the new one), never its logs.
    await expect(run.fetch(before)).rejects.toThrow();
    const read = await (await run.fetch(after))();
    expect(read.logs.filter((l) => l.txHash === hashes[0])).toEqual([]);
  });
});

describe('readTransfer: one transaction', () => {
  it('sums the Transfer logs of the token to the address, with each log’s index, once mined', async () => {
    const { hashes } = await inOneBlock(async () => [
      await chain.wallet.writeContract({ account: bob, chain: null, address: batch, abi: batchAbi, functionName: 'send', args: [USDT.address, [depositA, depositB, depositA], [usdt(1n), usdt(2n), usdt(3n)]] }),
    ]);
    const hash = hashes[0] as Hash;
    const reading = (await usdtRail.readTransfer(hash, depositA)) as TokenTransferReading;
    expect(reading.state).toBe('mined');
    if (reading.state !== 'mined') return;
    expect(reading.transfer).toMatchObject({ to: depositA, valueWei: usdt(4n), payer: batch.toLowerCase(), from: batch.toLowerCase(), sender: bob.toLowerCase(), success: true, confirmations: 1, canonical: true, calls: 2 });
    expect(reading.transfer.logs.map((l) => l.amount)).toEqual([usdt(1n), usdt(3n)]);
    expect(reading.transfer.logs[0]!.logIndex).toBeLessThan(reading.transfer.logs[1]!.logIndex);
    // Nothing of USDC in it; nothing to another address.
    const other = await usdcRail.readTransfer(hash, depositA);
    expect(other.state === 'mined' && other.transfer.valueWei).toBe(0n);
    const toStranger = await usdtRail.readTransfer(hash, stranger);
    expect(toStranger.state === 'mined' && toStranger.transfer.valueWei).toBe(0n);
  });

  it('leaves out what the shop’s own forwarders moved (a sweep): the shop’s money, never a payment', async () => {
    const { hashes } = await inOneBlock(async () => [
      await chain.wallet.writeContract({ account: bob, chain: null, address: batch, abi: batchAbi, functionName: 'send', args: [USDC.address, [receivingAddress, receivingAddress], [usdt(5n), usdt(6n)]] }),
    ]);
    const hash = hashes[0] as Hash;
    const all = await usdcRail.readTransfer(hash, receiving);
    expect(all.state === 'mined' && all.transfer.valueWei).toBe(usdt(11n));
    // The batch contract standing in for a deposit forwarder of the shop's.
    const own = await usdcRail.readTransfer(hash, receiving, { ownSenders: async (a) => new Set(a.filter((x) => x === batch.toLowerCase())) });
    expect(own.state === 'mined' && { value: own.transfer.valueWei, payer: own.transfer.payer, calls: own.transfer.calls }).toEqual({ value: 0n, payer: null, calls: 0 });
  });

  it('reads the receipt once: what it counts is in the receipt it judged, whatever a replica serves after; a payout read with no receipt says nothing was shown', async () => {
    const hash = await sendToken(USDC, alice, depositA, usdt(8n));
    await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    // The real node, behind a replica that serves the receipt once and then not (a load balancer's lagging node).
    let served = 0;
    const lagging = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== 'getTransactionReceipt') return Reflect.get(target, prop, receiver) as unknown;
        return async (args: { hash: Hash }) => {
          if (served++ > 0) throw new TransactionReceiptNotFoundError({ hash: args.hash });
          return target.getTransactionReceipt(args);
        };
      },
    }) as unknown as PublicClient;
    const rail = createTokenRail({ config: { chainId: 1 }, chain: lagging }, USDC);
    const reading = await rail.readTransfer(hash, depositA);
    expect(reading.state === 'mined' && { value: reading.transfer.valueWei, canonical: reading.transfer.canonical }).toEqual({ value: usdt(8n), canonical: true });
    expect(served).toBe(1);
    expect(await rail.payoutDelivery({ hash, from: alice, to: USDC.address, value: 0n }, [depositA], () => false)).toBeNull();
  });

  it('shows a pending transfer with the amount its call asks for, and an unknown hash as unknown', async () => {
    await chain.setAutomine(false);
    try {
      const hash = await sendToken(USDC, alice, depositB, usdt(9n));
      const pending = await usdcRail.readTransfer(hash, depositB);
      expect(pending.state === 'pending' && { ...pending, from: pending.from.toLowerCase() }).toEqual({ state: 'pending', from: alice.toLowerCase(), to: depositB, valueWei: usdt(9n) });
      await chain.mine();
      const mined = await usdcRail.readTransfer(hash, depositB);
      expect(mined.state === 'mined' && mined.transfer.valueWei).toBe(usdt(9n));
    } finally {
      await chain.setAutomine(true);
    }
    expect(await usdcRail.readTransfer(`0x${'ab'.repeat(32)}`, depositB)).toEqual({ state: 'unknown' });
  });
});

describe('payoutDelivery: a payout in the token, read from its Transfer log', () => {
  it('reads a USDT payout (its transfer returns nothing) and a USDC one, and how much came from the shop', async () => {
    const fromShop = (a: string) => a.toLowerCase() === shopPayout.toLowerCase();
    for (const [rail, token] of [[usdtRail, USDT], [usdcRail, USDC]] as const) {
      const hash = await sendToken(token, shopPayout, bob, usdt(12n));
      const receipt = await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      expect(receipt.status).toBe('success');
      const tx = { hash, from: shopPayout, to: token.address, value: 0n };
      expect(await rail.payoutDelivery(tx, [bob.toLowerCase()], fromShop)).toEqual({ toWallet: usdt(12n), sent: usdt(12n) });
      // To another wallet it delivered nothing; from another holder, nothing of the shop's.
      expect(await rail.payoutDelivery(tx, [alice.toLowerCase()], fromShop)).toEqual({ toWallet: 0n, sent: 0n });
      expect(await rail.payoutDelivery(tx, [bob.toLowerCase()], () => false)).toEqual({ toWallet: usdt(12n), sent: 0n });
    }
    // The balance moved as the log says.
    expect(await client.readContract({ address: USDT.address, abi: erc20Abi, functionName: 'balanceOf', args: [bob] })).toBeGreaterThanOrEqual(usdt(12n));
  });

  it('a payout that reverted delivered nothing', async () => {
    const hash = await chain.wallet.sendTransaction({ account: alice, chain: null, gas: 100_000n, ...tokenTransferRequest(USDT, bob, usdt(10_000_000n)) });
    const receipt = await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe('reverted');
    expect(await usdtRail.payoutDelivery({ hash, from: alice, to: USDT.address, value: 0n }, [bob.toLowerCase()], () => true)).toEqual({ toWallet: 0n, sent: 0n });
  });
});

/**
 * A payment is keyed by its Transfer log (payments/transfer.ts passes the key's logIndex to
 * the rail's readTransfer): what verification credits once this rail is in chainRails.
 */
describe('a payment keyed by its Transfer log', () => {
  it('credits each log’s payment its own log’s amount: two logs to one deposit address are their sum once, not twice', async () => {
    const { block } = await inOneBlock(async () => [
      await chain.wallet.writeContract({ account: bob, chain: null, address: batch, abi: batchAbi, functionName: 'send', args: [USDC.address, [depositA, depositA], [usdt(1n), usdt(3n)]] }),
    ]);
    // The indexer records two payments, (hash, depositA, log i) and (hash, depositA, log j).
    const found = await deliveriesIn(usdcRail, block);
    expect(found.map((d) => [d.depositAddress, d.amount])).toEqual([
      [depositA, usdt(1n)],
      [depositA, usdt(3n)],
    ]);
    // Each is verified by reading its own log of its transaction for its address, as readPaymentTransfer does with the payment's key.
    const credited: (bigint | string)[] = [];
    for (const d of found) {
      const reading = await usdcRail.readTransfer(d.hash, d.depositAddress as string, { logIndex: d.logIndex });
      credited.push(reading.state === 'mined' ? reading.transfer.valueWei : reading.state);
    }
    // 4 USDC arrived; crediting each payment the transaction's sum counts 8.
    expect(credited).toEqual([usdt(1n), usdt(3n)]);
  });

  it('reads the Transfer logs of the receipt it judged: a second read served from another block (a replica on another fork) is not taken', async () => {
    const hash = await sendToken(USDC, alice, depositA, usdt(8n));
    await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    let served = 0;
    const forked = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== 'getTransactionReceipt') return Reflect.get(target, prop, receiver) as unknown;
        return async (args: { hash: Hash }) => {
          const receipt = await target.getTransactionReceipt(args);
          if (served++ === 0) return receipt;
          // The same transaction in another block of another fork, its Transfer worth 100 times as much.
          const otherBlock = `0x${'cd'.repeat(32)}` as Hash;
          return { ...receipt, blockHash: otherBlock, logs: receipt.logs.map((l) => ({ ...l, blockHash: otherBlock, data: numberToHex(usdt(800n), { size: 32 }) })) };
        };
      },
    }) as unknown as PublicClient;
    const rail = createTokenRail({ config: { chainId: 1 }, chain: forked }, USDC);
    const reading = await rail.readTransfer(hash, depositA);
    // Judged (mined, confirmations, canonical) on the first receipt; its amount must be that receipt's, or nothing yet.
    expect(reading.state === 'mined' ? reading.transfer.valueWei : usdt(8n)).toBe(usdt(8n));
  });
});
