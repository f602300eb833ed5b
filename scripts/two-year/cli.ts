// `npm run bench:data`: builds the two-year shop template (or finds it built from the same
// generator, migrations and scale), prints its known accounts and writes them as JSON to
// the OS temp folder. The server is DATABASE_URL's (default: the local Postgres).
//
//   npm run bench:data -- --scale=0.1            a tenth of the rows (SCALE=0.1 does the same)
//   npm run bench:data -- --rebuild              build again even if it matches
//   npm run bench:data -- --reconcile            then run the reconciler over it
//   npm run bench:data -- --clone=shop_bench_1   then copy it to a database for one run
//   npm run bench:data -- --drop=shop_bench_1    drop such a copy
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeReport } from '@shop/core';
import { adminUrlFor, redactUrl } from '../db/postgres-admin.ts';
import { reconcileTwoYear } from './books.ts';
import { cloneTwoYear, DEFAULT_TEMPLATE, dropTwoYearDatabase, ensureTwoYearTemplate } from './template.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: process.env.SCALE ?? '1' },
    name: { type: 'string', default: DEFAULT_TEMPLATE },
    jobs: { type: 'string', default: String(Math.min(4, Math.max(2, os.availableParallelism()))) },
    rebuild: { type: 'boolean', default: false },
    reconcile: { type: 'boolean', default: false },
    clone: { type: 'string' },
    drop: { type: 'string' },
  },
});

async function main(): Promise<void> {
  const adminUrl = adminUrlFor(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  if (values.drop) {
    await dropTwoYearDatabase(adminUrl, values.drop);
    console.log(`Dropped ${values.drop}`);
    return;
  }
  const scale = Number(values.scale);
  const started = performance.now();
  const template = await ensureTwoYearTemplate({
    adminUrl,
    name: values.name,
    scale,
    rebuild: values.rebuild,
    jobs: Number(values.jobs),
    log: (line) => console.log(line),
  });
  const { meta } = template;
  console.log(
    template.reused
      ? `Reusing ${template.name} (built ${meta.builtAt} at scale ${meta.scale} in ${meta.buildSeconds} s)`
      : `Built ${template.name} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const accountsFile = path.join(os.tmpdir(), `${template.name}.accounts.json`);
  await writeFile(accountsFile, `${JSON.stringify({ database: template.name, ...meta.accounts }, null, 2)}\n`);
  console.log(`Known accounts (password ${meta.accounts.password}), also in ${accountsFile}:`);
  console.log(`  admin    ${meta.accounts.admin.email}  ${meta.accounts.admin.id}`);
  console.log(`  buyer    ${meta.accounts.buyer.email}  ${meta.accounts.buyer.id}`);
  console.log(`  referrer ${meta.accounts.referrer.email}  ${meta.accounts.referrer.id}`);
  console.log(`  open cashout ${meta.accounts.openCashout.id} (requested ${meta.accounts.openCashout.createdAt})`);

  if (values.reconcile) {
    console.log('Reconciling (the checks that ask the node left out)...');
    const { report, seconds } = await reconcileTwoYear(template.url);
    console.log(`${describeReport(report)}\nReconciled in ${seconds.toFixed(1)} s`);
    if (report.discrepancies.length > 0) process.exitCode = 1;
  }
  if (values.clone) {
    const clone = await cloneTwoYear({ adminUrl, template: template.name, name: values.clone });
    console.log(`Cloned to ${redactUrl(clone.url)} (drop it with npm run bench:data -- --drop=${clone.name})`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
