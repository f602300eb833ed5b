import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Abi, Hex } from 'viem';
import { REPO_ROOT } from './paths.ts';

/**
 * Compiles a contract of ours with solc-js (it works offline) for the local chain: the
 * mock price feed, and the test smart wallet. Builds are cached under .cache/, keyed by
 * a hash of the source and the compiler settings, so editing the .sol file recompiles
 * and a warm cache skips loading solc (a few seconds).
 */
export type CompiledContract = {
  key: string;
  solcVersion: string;
  abi: Abi;
  bytecode: Hex;
  /** The deployed code, zeros where the constructor writes its immutables. */
  runtimeBytecode: Hex;
  /** Where each immutable sits in the deployed code, by the variable's name (byte offsets of 32-byte words). */
  immutables: Immutables;
};
export type Immutables = Record<string, { start: number; length: number }[]>;

export async function compileSolidity(sourcePath: string, contractName: string): Promise<CompiledContract> {
  // Cancun runs on anvil and on every client a mainnet fork would use; pinning it keeps
  // the bytecode (and the cache) independent of solc's moving default.
  const settings = {
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { '': ['ast'], [contractName]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] } },
  };
  const source = await readFile(sourcePath, 'utf8');
  const key = createHash('sha256').update(source).update('\0').update(JSON.stringify(settings)).digest('hex');
  const cachePath = join(REPO_ROOT, '.cache', `${contractName}.json`);
  const cached = await readCache(cachePath);
  if (cached?.key === key) return cached;

  const { default: solc } = await import('solc');
  const file = basename(sourcePath);
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources: { [file]: { content: source } }, settings }))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`${file} did not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts?.[file]?.[contractName];
  const bytecode = contract?.evm?.bytecode?.object;
  const runtime = contract?.evm?.deployedBytecode?.object;
  if (!contract?.abi || !bytecode || !runtime) throw new Error(`solc output has no ${contractName} bytecode`);
  const immutables = immutablesByName(output.sources?.[file]?.ast, contract.evm?.deployedBytecode?.immutableReferences ?? {});
  const compiled: CompiledContract = { key, solcVersion: String(solc.version()), abi: contract.abi, bytecode: `0x${bytecode}`, runtimeBytecode: `0x${runtime}`, immutables };
  await mkdir(dirname(cachePath), { recursive: true });
  // Write then rename, so parallel test files never read a half-written cache; the name is
  // random, as two compiles of one contract in the same process and millisecond would
  // otherwise write (and rename away) the same temporary file.
  const tmp = `${cachePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, `${JSON.stringify(compiled, null, 2)}\n`);
  await rename(tmp, cachePath);
  return compiled;
}

type SolcOutput = {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  sources?: Record<string, { ast?: AstNode }>;
  contracts?: Record<string, Record<string, { abi?: Abi; evm?: { bytecode?: { object?: string }; deployedBytecode?: { object?: string; immutableReferences?: Immutables } } }>>;
};
type AstNode = { id?: number; nodeType?: string; name?: string; mutability?: string; [key: string]: unknown };

/** solc keys immutableReferences by the variable's AST id: named here from the source's AST. */
function immutablesByName(ast: AstNode | undefined, references: Immutables): Immutables {
  const names = new Map<string, string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as AstNode;
    if (n.nodeType === 'VariableDeclaration' && n.mutability === 'immutable' && typeof n.id === 'number' && typeof n.name === 'string') names.set(String(n.id), n.name);
    Object.values(n).forEach(walk);
  };
  walk(ast);
  return Object.fromEntries(
    Object.entries(references).map(([id, places]) => {
      const name = names.get(id);
      if (!name) throw new Error(`solc names immutable ${id}, which its AST does not declare`);
      return [name, places.map(({ start, length }) => ({ start, length }))];
    }),
  );
}

async function readCache(path: string): Promise<CompiledContract | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<CompiledContract>;
    const complete = typeof parsed.key === 'string' && Array.isArray(parsed.abi) && typeof parsed.immutables === 'object' && parsed.immutables !== null;
    if (complete && /^0x[0-9a-f]+$/i.test(parsed.bytecode ?? '') && /^0x[0-9a-f]+$/i.test(parsed.runtimeBytecode ?? '')) {
      return parsed as CompiledContract;
    }
  } catch {
    // missing or corrupt: recompile
  }
  return undefined;
}
