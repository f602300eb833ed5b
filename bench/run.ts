import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../scripts/lib/paths.ts';
import { apiBench } from './api.ts';
import { depositsBench } from './deposits.ts';
import { drillsBench } from './drills.ts';
import { indexerBench } from './indexer.ts';
import { lighthouseBench } from './lighthouse.ts';
import { ordersBench } from './orders.ts';
import { runBench, type Bench } from './lib/main.ts';
import { renderSection, type Section } from './lib/report.ts';
import { installSignalCleanup } from './lib/scope.ts';
import { paymentsBench } from './payments.ts';
import { relayBench } from './relay.ts';
import { soakBench } from './soak.ts';
import { twoYearBench } from './two-year.ts';
import { webBench } from './web.ts';

/**
 * `npm run bench`: every benchmark, one after the other, each with its baseline measured
 * in the same run; prints the tables and writes bench/RESULTS.md. `--only=api,web` runs a
 * subset and replaces only those sections of RESULTS.md, each marked with its own date
 * (bench/soak.svg is left alone). Exits 1 when a benchmark could not run; a missed
 * target is reported (FAIL in the table), not an error.
 */
const benches: Bench[] = [apiBench, ordersBench, paymentsBench, relayBench, indexerBench, depositsBench, twoYearBench, webBench, lighthouseBench, drillsBench, soakBench];
const RESULTS = path.join(REPO_ROOT, 'bench/RESULTS.md');

const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const selected = only ? benches.filter((b) => only.includes(b.id)) : benches;
if (only && selected.length !== only.length) {
  console.error(`unknown benchmark in --only; choose from ${benches.map((b) => b.id).join(', ')}`);
  process.exit(1);
}

installSignalCleanup();
// A full run writes its figures (RESULTS.md, and the soak's plot beside it); a partial one its sections only.
if (!only) process.env.BENCH_WRITE_RESULTS = '1';
const started = new Date();
const loadBefore = os.loadavg();
const sections: Section[] = [];
for (const bench of selected) {
  console.log(`\n[bench] ${bench.id}: ${bench.title}`);
  const section = await runBench(bench);
  sections.push(section);
  console.log(`\n${renderSection(section)}`);
}
const seconds = (Date.now() - started.getTime()) / 1000;
const loadAfter = os.loadavg();

const cpus = os.cpus();
const machine = [
  `${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown model'})`,
  `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
  `${os.type()} ${os.release()}`,
  `Node ${process.version}`,
  `load average ${loadBefore[0]?.toFixed(1)} at the start, ${loadAfter[0]?.toFixed(1)} at the end`,
].join(', ');
const misses = sections.flatMap((s) => s.rows.filter((r) => r.pass === false).map((r) => `${s.id}: ${r.metric}`));
const errors = sections.filter((s) => s.error);

const summary = [
  `${sections.reduce((n, s) => n + s.rows.filter((r) => r.pass !== undefined).length, 0)} targets checked, ${misses.length} missed${misses.length ? `: ${misses.join('; ')}` : ''}.`,
  ...(errors.length ? [`Did not complete: ${errors.map((s) => s.id).join(', ')}.`] : []),
];
console.log(`\n[bench] ${summary.join(' ')} (${seconds.toFixed(0)} s)`);

if (!only) {
  const doc = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts; the drills section alone: `npm run drills`); do not edit by hand. Every figure sits beside a',
    'baseline measured in the same run on the same machine: these machines are noisy, so read',
    'the ratios; absolute times move from run to run.',
    '',
    `- Date: ${started.toISOString()}`,
    `- Machine: ${machine}`,
    '- Command: `npm run bench`',
    `- Duration: ${seconds.toFixed(0)} s`,
    `- Summary: ${summary.join(' ')}`,
    '',
    ...sections.map((s) => renderSection(s).replace(/^### /, '## ')),
  ].join('\n');
  await writeFile(RESULTS, doc);
  console.log(`[bench] wrote ${path.relative(process.cwd(), RESULTS)}`);
} else {
  // A partial run replaces its own sections (or adds them), each saying when and how it
  // was measured; the others keep the figures of the run that wrote them.
  let doc = await readFile(RESULTS, 'utf8');
  for (const s of sections) {
    const [heading, ...body] = renderSection(s).replace(/^### /, '## ').split('\n');
    const block = [heading, '', `Measured ${started.toISOString()} by \`npm run bench -- --only=${only.join(',')}\` (${seconds.toFixed(0)} s; ${machine}), apart from the full run above.`, ...body].join('\n').trimEnd();
    const at = doc.indexOf(`${heading}\n`);
    if (at < 0) {
      doc = `${doc.trimEnd()}\n\n${block}\n`;
      continue;
    }
    const next = doc.indexOf('\n## ', at + heading!.length);
    doc = `${doc.slice(0, at)}${block}\n${next < 0 ? '' : doc.slice(next)}`;
  }
  await writeFile(RESULTS, doc);
  console.log(`[bench] updated ${sections.map((s) => s.id).join(', ')} in ${path.relative(process.cwd(), RESULTS)}`);
}
process.exit(errors.length > 0 ? 1 : 0);
