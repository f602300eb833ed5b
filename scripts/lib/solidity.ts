import { createHash } from 'node:crypto';
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
export type CompiledContract = { key: string; solcVersion: string; abi: Abi; bytecode: Hex; runtimeBytecode: Hex };

export async function compileSolidity(sourcePath: string, contractName: string): Promise<CompiledContract> {
  // Cancun runs on anvil and on every client a mainnet fork would use; pinning it keeps
  // the bytecode (and the cache) independent of solc's moving default.
  const settings = {
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { [contractName]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
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
  const compiled: CompiledContract = { key, solcVersion: String(solc.version()), abi: contract.abi, bytecode: `0x${bytecode}`, runtimeBytecode: `0x${runtime}` };
  await mkdir(dirname(cachePath), { recursive: true });
  // Write then rename, so parallel test files never read a half-written cache.
  const tmp = `${cachePath}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, `${JSON.stringify(compiled, null, 2)}\n`);
  await rename(tmp, cachePath);
  return compiled;
}

type SolcOutput = {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts?: Record<string, Record<string, { abi?: Abi; evm?: { bytecode?: { object?: string }; deployedBytecode?: { object?: string } } }>>;
};

async function readCache(path: string): Promise<CompiledContract | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<CompiledContract>;
    if (typeof parsed.key === 'string' && Array.isArray(parsed.abi) && /^0x[0-9a-f]+$/i.test(parsed.bytecode ?? '') && /^0x[0-9a-f]+$/i.test(parsed.runtimeBytecode ?? '')) {
      return parsed as CompiledContract;
    }
  } catch {
    // missing or corrupt: recompile
  }
  return undefined;
}
