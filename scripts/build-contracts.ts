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
export const BALANCE_READER_SOURCE = path.join(REPO_ROOT, 'core/src/chain/BalanceReader.sol');
export const BALANCE_READER_BYTECODE_FILE = path.join(REPO_ROOT, 'core/src/chain/balance-reader-bytecode.ts');

/** The committed module of one contract's creation code. */
async function bytecodeModule(source: string, contract: string, exportName: string): Promise<string> {
  const built = await compileSolidity(source, contract);
  return [
    `// Written by \`npm run contracts:build\` from ${path.basename(source)}; do not edit by hand.`,
    `// solc ${built.solcVersion}, evm cancun, optimizer on (200 runs).`,
    `export const ${exportName} = '${built.bytecode}' as const;`,
    '',
  ].join('\n');
}

export const factoryBytecodeModule = () => bytecodeModule(FACTORY_SOURCE, 'DepositFactory', 'DEPOSIT_FACTORY_BYTECODE');
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
