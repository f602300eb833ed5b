import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './lib/paths.ts';
import { compileSolidity } from './lib/solidity.ts';

/**
 * `npm run contracts:build`: compiles the shop's contracts with the pinned solc (offline)
 * and writes their bytecode beside them: core/src/deposits/DepositFactory.sol into
 * factory-bytecode.ts (the deployment script and `npm start` deploy it; the factory's and
 * the forwarder's deployed code, with their immutables' places, are what the shop
 * compares a configured factory with), and
 * core/src/chain/BalanceReader.sol into balance-reader-bytecode.ts (run in eth_call, never
 * deployed). Tests compile them again and fail when the committed bytecode is not the source's.
 */
export const FACTORY_SOURCE = path.join(REPO_ROOT, 'core/src/deposits/DepositFactory.sol');
export const FACTORY_BYTECODE_FILE = path.join(REPO_ROOT, 'core/src/deposits/factory-bytecode.ts');
export const BALANCE_READER_SOURCE = path.join(REPO_ROOT, 'core/src/chain/BalanceReader.sol');
export const BALANCE_READER_BYTECODE_FILE = path.join(REPO_ROOT, 'core/src/chain/balance-reader-bytecode.ts');

/**
 * The committed module of one contract's creation code, and of the deployed code of
 * `runtimes` (contracts of the same source) with where their immutables sit: what the code
 * at an address must be, once the constructor's values are filled in (factory-check.ts).
 */
async function bytecodeModule(source: string, contract: string, exportName: string, runtimes: { contract: string; exportName: string }[] = []): Promise<string> {
  const built = await compileSolidity(source, contract);
  const lines = [
    `// Written by \`npm run contracts:build\` from ${path.basename(source)}; do not edit by hand.`,
    `// solc ${built.solcVersion}, evm cancun, optimizer on (200 runs).`,
    `export const ${exportName} = '${built.bytecode}' as const;`,
  ];
  for (const runtime of runtimes) {
    const deployed = await compileSolidity(source, runtime.contract);
    lines.push(
      '',
      `/** ${runtime.contract}'s deployed code (zeros where its immutables go) and its immutables' byte offsets, by name. */`,
      `export const ${runtime.exportName} = {`,
      `  code: '${deployed.runtimeBytecode}',`,
      `  immutables: ${JSON.stringify(deployed.immutables)},`,
      '} as const;',
    );
  }
  return [...lines, ''].join('\n');
}

export const factoryBytecodeModule = () =>
  bytecodeModule(FACTORY_SOURCE, 'DepositFactory', 'DEPOSIT_FACTORY_BYTECODE', [
    { contract: 'DepositFactory', exportName: 'DEPOSIT_FACTORY_RUNTIME' },
    { contract: 'DepositForwarder', exportName: 'DEPOSIT_FORWARDER_RUNTIME' },
  ]);
export const balanceReaderBytecodeModule = () => bytecodeModule(BALANCE_READER_SOURCE, 'BalanceReader', 'BALANCE_READER_BYTECODE');

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, module] of [
    [FACTORY_BYTECODE_FILE, factoryBytecodeModule],
    [BALANCE_READER_BYTECODE_FILE, balanceReaderBytecodeModule],
  ] as const) {
    await writeFile(file, await module());
    console.log(`wrote ${path.relative(REPO_ROOT, file)}`);
  }
}
