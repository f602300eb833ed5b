import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './lib/paths.ts';
import { compileSolidity } from './lib/solidity.ts';

/**
 * `npm run contracts:build`: compiles core/src/deposits/DepositFactory.sol with the
 * pinned solc (offline) and writes its deployable bytecode to
 * core/src/deposits/factory-bytecode.ts, which the deployment script and `npm start` use.
 * A test compiles it again and fails when the committed bytecode is not the source's.
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

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(FACTORY_BYTECODE_FILE, await factoryBytecodeModule());
  console.log(`wrote ${path.relative(REPO_ROOT, FACTORY_BYTECODE_FILE)}`);
}
