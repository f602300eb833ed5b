// One-off: the two-year EXPLAIN check alone (bench/two-year/explain.ts) on a clone of the scale-1 template.
import { createRuntime, loadConfig } from '@shop/core';
import { createBenchEnv } from './bench/lib/env.ts';
import { cloneTwoYear } from './scripts/two-year/template.ts';
import { explainLists } from './bench/two-year/explain.ts';

const adminUrl = 'postgresql://postgres@127.0.0.1:5432/postgres';
const clone = await cloneTwoYear({ adminUrl });
const env = await createBenchEnv({ chain: true, vars: { DATABASE_URL: clone.url, LOG_LEVEL: 'silent', MAX_HELD_TAGS_PER_USER: '100000000', MAX_UNPAID_STOCK_SHARE_PERCENT: '100' } });
const runtime = createRuntime(loadConfig({ ...env.vars, DATABASE_URL: clone.url, LOG_LEVEL: 'silent' }), 'script');
const started = Date.now();
const accounts = { adminId: clone.meta.accounts.admin.id, buyerId: clone.meta.accounts.buyer.id, referrerId: clone.meta.accounts.referrer.id };
const plans = await explainLists(runtime, clone.url, accounts);
console.log(`queries ${plans.queries}, sources ${plans.sources}, seq scans ${plans.seqScans.length} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
for (const s of plans.seqScans) console.log('SEQ', s.source, s.table, s.rows, s.sql.slice(0, 200));
await runtime.close();
await env.close();
await clone.drop?.();
process.exit(0);
