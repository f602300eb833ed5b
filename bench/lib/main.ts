import { pathToFileURL } from 'node:url';
import { renderSection, runSection, type Section } from './report.ts';
import { createScope, installSignalCleanup, type Scope } from './scope.ts';

export type BenchBody = Pick<Section, 'rows' | 'notes'>;
export type Bench = { id: string; title: string; run(scope: Scope): Promise<BenchBody> };

/** Runs a benchmark in a scope of its own, released whatever happens. */
export function runBench(bench: Bench): Promise<Section> {
  return runSection(bench.id, bench.title, async () => {
    const scope = createScope();
    try {
      return await bench.run(scope);
    } finally {
      await scope.close();
    }
  });
}

/** True when `moduleUrl` is the file node was started with. */
export const isMain = (moduleUrl: string) => process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === moduleUrl;

/**
 * `node --import tsx bench/<name>.ts`: one benchmark, its table on stdout. Exits 1 only
 * when the benchmark could not run; a missed target is a figure, shown as FAIL.
 */
export async function runStandalone(bench: Bench): Promise<never> {
  installSignalCleanup();
  const section = await runBench(bench);
  console.log(`\n${renderSection(section)}`);
  process.exit(section.error ? 1 : 0);
}
