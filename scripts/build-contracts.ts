import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './lib/paths.ts';
import { compileSolidity } from './lib/solidity.ts';

/**
 * `npm run contracts:build`: compiles the shop's contracts with the pinned solc (offline)
 * and writes their bytecode beside them: core/src/deposits/DepositFactory.sol into
 * factory-bytecode.ts (the deployment script and `npm start` deploy it), and
 * core/src/chain/BalanceReader.sol into balance-reader-bytecode.ts (run in eth_call, never
 * deployed). Tests compile them again and fail when the committed bytecode is not the source's.
 */
export const FACTORY_SOURCE = path.join(REPO_ROOT, 'core/src/deposits/DepositFactory.sol');
export const FACTORY_BYTECODE_FILE = path.join(REPO_ROOT, 'core/src/deposits/factory-bytecode.ts');

export async function factoryBytecodeModule(): Promise<string> {
  const built = await compileSolidity(FACTORY_SOURCE, 'DepositFactory');
  return [
    '// Written by `npm run contracts:build` from DepositFactory.sol; do not edit by hand.',
    `// solc ${built.solcVersion}, evm cancun, optimizer on (200 runs).`,
    `export const DEPOSIT_FACTORY_BYTECODE = '${built.bytecode}' as const;`,
    '',
  ].join('\n');
}

export const BALANCE_READER_SOURCE = path.join(REPO_ROOT, 'core/src/chain/BalanceReader.sol');
export const BALANCE_READER_BYTECODE_FILE = path.join(REPO_ROOT, 'core/src/chain/balance-reader-bytecode.ts');

export async function balanceReaderBytecodeModule(): Promise<string> {
  const built = await compileSolidity(BALANCE_READER_SOURCE, 'BalanceReader');
  return [
    '// Written by `npm run contracts:build` from BalanceReader.sol; do not edit by hand.',
    `// solc ${built.solcVersion}, evm cancun, optimizer on (200 runs).`,
    `export const BALANCE_READER_BYTECODE = '${built.bytecode}' as const;`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(FACTORY_BYTECODE_FILE, await factoryBytecodeModule());
  console.log(`wrote ${path.relative(REPO_ROOT, FACTORY_BYTECODE_FILE)}`);
  await writeFile(BALANCE_READER_BYTECODE_FILE, await balanceReaderBytecodeModule());
  console.log(`wrote ${path.relative(REPO_ROOT, BALANCE_READER_BYTECODE_FILE)}`);
}
