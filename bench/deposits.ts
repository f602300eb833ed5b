import { parseEther, type Address, type TransactionReceipt } from 'viem';
import { depositFactoryAbi } from '../core/src/deposits/abi.ts';
import { depositAddresses, depositSalt } from '../core/src/deposits/addresses.ts';
import { startAnvil } from '../scripts/lib/anvil.ts';
import { deployDepositFactory } from '../scripts/lib/deposit-factory.ts';
import { ANVIL_ACCOUNTS, anvilDriver } from '../scripts/testing/chain.ts';
import { tokenBySymbol } from '../core/src/contract/tokens.ts';
import { GAS_PER_TOKEN_ITEM, tokenSweepCalls } from '../core/src/deposit-sweeper/token-sweeps.ts';
import { factoryTransaction } from '../core/src/deposit-sweeper/sweeper-wallet.ts';
import { balanceOfAbi, quietTransferAbi } from '../core/src/rails/erc20/abi.ts';
import { installMulticall3 } from '../scripts/lib/multicall3.ts';
import { installTokenMocks } from '../scripts/lib/token-mocks.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';

/**
 * `npm run bench -- --only=deposits`: the gas a sweep of deposit addresses costs
 * (core/src/deposits/DepositFactory.sol), alone and in batches, beside the figure
 * published for a minimal forwarder and a plain transfer measured in the same run; and
 * the gas of a token sweep alone and batched, beside the ETH sweeps of the same run.
 */
const PUBLISHED_MINIMAL_FORWARDER_GAS = 59_000;
/** A deposit in a batch may cost this much more than the published figure. */
const TARGET_PER_DEPOSIT = 65_000;
const BATCHES = [1, 10, 50] as const;

const int = (n: bigint | number) => Number(n).toLocaleString('en-US');

export const depositsBench: Bench = {
  id: 'deposits',
  title: 'Deposit addresses: gas to sweep them (anvil, Cancun)',
  async run(scope) {
    const anvil = await startAnvil();
    scope.defer('anvil', () => anvil.stop());
    const chain = anvilDriver(anvil.rpcUrl);
    const [deployer, buyer, sweeper] = [ANVIL_ACCOUNTS[0], ANVIL_ACCOUNTS[1], ANVIL_ACCOUNTS[2]];
    // The receiving address holds ETH already, as the shop's does (no new-account gas).
    const receiver = ANVIL_ACCOUNTS[9];
    const factory = await deployDepositFactory({ rpcUrl: anvil.rpcUrl, account: deployer, receiver });
    const addresses = depositAddresses(factory.address);
    const mined = async (hash: `0x${string}`): Promise<TransactionReceipt> => {
      const receipt = await chain.wallet.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== 'success') throw new Error(`${hash} reverted`);
      return receipt;
    };
    const sweep = async (ids: string[]) =>
      mined(await chain.wallet.writeContract({ address: factory.address, abi: depositFactoryAbi, functionName: 'sweep', args: [ids.map(depositSalt)], account: sweeper, chain: null }));

    // Baseline: a buyer's plain transfer to the receiving address.
    const plain = await mined(await chain.send(buyer, receiver, parseEther('0.01')));

    const results: { size: number; gas: bigint }[] = [];
    let next = 0;
    for (const size of BATCHES) {
      const ids = Array.from({ length: size }, () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`);
      for (const id of ids) await mined(await chain.send(buyer, addresses.of(id) as Address, parseEther('0.01')));
      const before = await chain.wallet.getBalance({ address: receiver });
      const receipt = await sweep(ids);
      const after = await chain.wallet.getBalance({ address: receiver });
      if (after - before !== parseEther('0.01') * BigInt(size)) throw new Error(`a sweep of ${size} did not deliver every deposit`);
      results.push({ size, gas: receipt.gasUsed });
    }
    // A top-up after its sweep: flushing a proxy deployed before.
    const again = `00000000-0000-4000-8000-${String(1).padStart(12, '0')}`;
    await mined(await chain.send(buyer, addresses.of(again) as Address, parseEther('0.01')));
    const reflush = await sweep([again]);

    const alone = results[0]!.gas;
    const largest = results[results.length - 1]!;
    const marginal = (largest.gas - alone) / BigInt(largest.size - 1);
    const rows = [
      {
        metric: 'One deposit swept alone (deploy and flush, the transaction included)',
        target: '-',
        figure: `${int(alone)} gas`,
        baseline: `${int(plain.gasUsed)} gas (a plain transfer to the receiving address)`,
      },
      ...results.slice(1).map((r) => ({
        metric: `${r.size} deposits in one sweep, per deposit`,
        target: `<= ${int(TARGET_PER_DEPOSIT)} gas`,
        figure: `${int(r.gas / BigInt(r.size))} gas (${int(r.gas)} in all)`,
        baseline: `${int(PUBLISHED_MINIMAL_FORWARDER_GAS)} gas (published minimal forwarder)`,
        pass: r.gas / BigInt(r.size) <= BigInt(TARGET_PER_DEPOSIT),
      })),
      {
        metric: 'Each more deposit in a batch (marginal)',
        target: `<= ${int(TARGET_PER_DEPOSIT)} gas`,
        figure: `${int(marginal)} gas`,
        baseline: `${int(PUBLISHED_MINIMAL_FORWARDER_GAS)} gas (published minimal forwarder)`,
        pass: marginal <= BigInt(TARGET_PER_DEPOSIT),
      },
      { metric: 'A top-up flushed from an address swept before', target: '-', figure: `${int(reflush.gasUsed)} gas`, baseline: '-' },
      ...(await tokenSweepRows({ rpcUrl: anvil.rpcUrl, factory: factory.address, buyer, sweeper, receiver, eth: results, mined })),
    ];
    return {
      rows,
      notes: [
        `Anvil (Cancun); the factory deployed by scripts/lib/deposit-factory.ts (${int(factory.gasUsed)} gas, once per shop); each deposit 0.01 ETH from a dev account to its order's address (core/src/deposits/addresses.ts), then swept by a third account: batches of ${BATCHES.join(', ')}; every sweep checked to deliver all of its deposits to the receiving address.`,
        'The published figure is for a minimal forwarder deployed and flushed in one transaction, as here; the marginal row is what a batch adds per deposit, the 21,000 of the transaction shared.',
        'The time from a deposit\'s last confirmation to PAID is in the payments section (20 ETH deposits and 40 USDC and USDT deposits beside the 100 tagged payments of the same run).',
        `Token sweeps: 1 USDC from a dev account to each of ${TOKEN_BATCHES.join(', ')} fresh deposit addresses, then one transaction of the gas wallet to Multicall3 whose aggregate3 calls the factory's recoverToken(salt, USDC) for each (core/src/deposit-sweeper/token-sweeps.ts), beside the ETH sweep of as many addresses above; the receiving address holds USDC already. Every token sweep checked to deliver each deposit. Targets: a batch's share per address as for ETH; the marginal at most GAS_PER_TOKEN_ITEM (${int(GAS_PER_TOKEN_ITEM)}), the gas the sweeper's dust rule counts for one more token deposit.`,
      ],
    };
  },
};

const TOKEN_BATCHES = [1, 10, 50] as const;

/**
 * The gas of a token sweep alone and batched, in the same run as the ETH sweeps: the
 * factory's recoverToken through Multicall3, per address, beside the ETH sweep of as many
 * addresses; and one recoverToken called directly (what `deposits:recover-token` sends).
 */
async function tokenSweepRows(input: {
  rpcUrl: string;
  factory: Address;
  buyer: Address;
  sweeper: Address;
  receiver: Address;
  eth: { size: number; gas: bigint }[];
  mined: (hash: `0x${string}`) => Promise<TransactionReceipt>;
}) {
  await installTokenMocks(input.rpcUrl);
  await installMulticall3(input.rpcUrl);
  const chain = anvilDriver(input.rpcUrl);
  const usdc = tokenBySymbol('USDC');
  const addresses = depositAddresses(input.factory);
  const balanceOf = (owner: Address) => chain.wallet.readContract({ address: usdc.address, abi: balanceOfAbi, functionName: 'balanceOf', args: [owner] });
  let next = 1_000;
  const deposited = async (size: number) => {
    const ids = Array.from({ length: size }, () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`);
    for (const id of ids) await input.mined(await chain.wallet.writeContract({ account: input.buyer, address: usdc.address, abi: quietTransferAbi, functionName: 'transfer', args: [addresses.of(id) as Address, ONE_USDC], chain: null }));
    return ids;
  };
  const send = (tx: { to: Address; data: `0x${string}` }) => chain.wallet.sendTransaction({ account: input.sweeper, ...tx, chain: null });

  const [direct] = await deposited(1);
  const alone = await input.mined(await send({ to: input.factory, data: tokenSweepCalls([{ orderId: direct!, asset: 'USDC' }])[0]! }));
  const results: { size: number; gas: bigint }[] = [];
  for (const size of TOKEN_BATCHES) {
    const ids = await deposited(size);
    const before = await balanceOf(input.receiver);
    const receipt = await input.mined(await send(factoryTransaction(input.factory, tokenSweepCalls(ids.map((orderId) => ({ orderId, asset: 'USDC' as const }))))));
    if ((await balanceOf(input.receiver)) - before !== ONE_USDC * BigInt(size)) throw new Error(`a token sweep of ${size} did not deliver every deposit`);
    results.push({ size, gas: receipt.gasUsed });
  }
  const ethOf = (size: number) => input.eth.find((r) => r.size === size);
  const one = results[0]!;
  const largest = results[results.length - 1]!;
  const marginal = (largest.gas - one.gas) / BigInt(largest.size - 1);
  return [
    {
      metric: 'One token deposit swept alone (recoverToken through Multicall3, the transaction included)',
      target: '-',
      figure: `${int(one.gas)} gas`,
      baseline: `${int(ethOf(1)?.gas ?? 0n)} gas (one ETH deposit swept alone, above); ${int(alone.gasUsed)} gas (recoverToken called directly)`,
    },
    ...results.slice(1).map((r) => ({
      metric: `${r.size} token deposits in one token sweep, per address`,
      target: `<= ${int(TARGET_PER_DEPOSIT)} gas`,
      figure: `${int(r.gas / BigInt(r.size))} gas (${int(r.gas)} in all)`,
      baseline: ethOf(r.size) ? `${int(ethOf(r.size)!.gas / BigInt(r.size))} gas (${r.size} ETH deposits in one sweep, per deposit)` : '-',
      pass: r.gas / BigInt(r.size) <= BigInt(TARGET_PER_DEPOSIT),
    })),
    {
      metric: 'Each more token deposit in a token sweep (marginal)',
      target: `<= ${int(GAS_PER_TOKEN_ITEM)} gas`,
      figure: `${int(marginal)} gas`,
      baseline: '-',
      pass: marginal <= GAS_PER_TOKEN_ITEM,
    },
  ];
}
const ONE_USDC = 1_000_000n;

if (isMain(import.meta.url)) await runStandalone(depositsBench);
