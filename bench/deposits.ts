import { parseEther, type Address, type TransactionReceipt } from 'viem';
import { depositFactoryAbi } from '../core/src/deposits/abi.ts';
import { depositAddresses, depositSalt } from '../core/src/deposits/addresses.ts';
import { startAnvil } from '../scripts/lib/anvil.ts';
import { deployDepositFactory } from '../scripts/lib/deposit-factory.ts';
import { ANVIL_ACCOUNTS, anvilDriver } from '../scripts/testing/chain.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';

/**
 * `npm run bench -- --only=deposits`: the gas a sweep of deposit addresses costs
 * (core/src/deposits/DepositFactory.sol), alone and in batches, beside the figure
 * published for a minimal forwarder and a plain transfer measured in the same run.
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
    ];
    return {
      rows,
      notes: [
        `Anvil (Cancun); the factory deployed by scripts/lib/deposit-factory.ts (${int(factory.gasUsed)} gas, once per shop); each deposit 0.01 ETH from a dev account to its order's address (core/src/deposits/addresses.ts), then swept by a third account: batches of ${BATCHES.join(', ')}; every sweep checked to deliver all of its deposits to the receiving address.`,
        'The published figure is for a minimal forwarder deployed and flushed in one transaction, as here; the marginal row is what a batch adds per deposit, the 21,000 of the transaction shared.',
        'The time from a deposit\'s last confirmation to PAID is in the payments section (20 deposits beside the 100 tagged payments of the same run).',
      ],
    };
  },
};

if (isMain(import.meta.url)) await runStandalone(depositsBench);
