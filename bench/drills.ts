import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../scripts/lib/paths.ts';
import { isMain, runStandalone, type Bench } from './lib/main.ts';
import { tempDir } from './lib/scope.ts';
import type { Row } from './lib/report.ts';

/**
 * The reliability drills: tests (also run by `npm test`) whose describe block starts with
 * "drill:". Run here on their own, each reports what it observed (scripts/testing/
 * drill-report.ts); the table shows that beside the test's result. `npm run drills`.
 */
const DRILL_FILES = ['worker/src/drills', 'worker/src/money-paths/reverted-late-and-worker-killed.test.ts'];
const COMMAND = ['vitest', 'run', '--project', 'server', ...DRILL_FILES, '-t', 'drill:'];

type JsonReport = {
  testResults: { name: string; assertionResults: { ancestorTitles: string[]; title: string; status: string; duration?: number | null; failureMessages?: string[] }[] }[];
};

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

export const drillsBench: Bench = {
  id: 'drills',
  title: 'Reliability drills (tests against real Postgres, Redis, anvil and worker processes)',
  async run(scope) {
    const dir = await tempDir(scope, 'drill report folder', 'shop-drills-');
    const reportFile = path.join(dir, 'observed.jsonl');
    const jsonFile = path.join(dir, 'vitest.json');
    console.log(`[bench] drills: npx ${COMMAND.join(' ')}`);
    const exit = await run('npx', [...COMMAND, '--reporter=dot', '--reporter=json', `--outputFile.json=${jsonFile}`], { ...process.env, DRILL_REPORT: reportFile });

    const report = JSON.parse(await readFile(jsonFile, 'utf8')) as JsonReport;
    const observed = new Map<string, string>();
    const lines = (await readFile(reportFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    for (const line of lines) {
      const { test, observed: text } = JSON.parse(line) as { test: string; observed: string };
      observed.set(test, text);
    }
    const rows: Row[] = [];
    for (const file of report.testResults) {
      for (const t of file.assertionResults) {
        if (t.status === 'skipped' || t.status === 'pending') continue;
        const name = [...t.ancestorTitles, t.title].join(' > ');
        const seconds = t.duration ? `${(t.duration / 1000).toFixed(1)} s` : '-';
        const failure = t.failureMessages?.[0]?.split('\n')[0];
        rows.push({
          metric: `${name.replace(/^drill: /, '')} (${path.relative(REPO_ROOT, file.name)})`,
          target: 'the test passes',
          figure: t.status === 'passed' ? (observed.get(name) ?? 'passed') : `failed: ${failure ?? t.status}`,
          baseline: seconds,
          pass: t.status === 'passed',
        });
      }
    }
    if (rows.length === 0) throw new Error(`no drill ran (vitest exited ${exit})`);
    return {
      rows,
      notes: [
        `Command: \`npm run drills\` (\`npx ${COMMAND.join(' ')}\`); every drill also runs in \`npm test\`. The baseline column holds each drill's duration: a drill has no baseline.`,
        'The observations are written by the drills themselves from what they measured (scripts/testing/drill-report.ts).',
      ],
    };
  },
};

if (isMain(import.meta.url)) await runStandalone(drillsBench);
