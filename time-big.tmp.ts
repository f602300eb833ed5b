// One-off: times the new reads on a clone of the scale-1 two-year template.
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { createRuntime, loadConfig } from '@shop/core';
import { createBenchEnv } from './bench/lib/env.ts';
import { cloneTwoYear } from './scripts/two-year/template.ts';
import { createApp } from './api/src/app.ts';
import { openSession } from './api/src/middleware/auth.ts';

const clone = await cloneTwoYear({ adminUrl: 'postgresql://postgres@127.0.0.1:5432/postgres' });
const env = await createBenchEnv({ chain: true, vars: { DATABASE_URL: clone.url, LOG_LEVEL: 'silent' } });
const runtime = createRuntime(loadConfig({ ...env.vars, DATABASE_URL: clone.url, LOG_LEVEL: 'silent', NODE_ENV: 'production' }), 'script');
const server = createServer(createApp(runtime));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const cookie = async (id: string) => (await openSession(runtime, id)).cookie;
const admin = await cookie(clone.meta.accounts.admin.id);
const referrer = await cookie(clone.meta.accounts.referrer.id);
const buyer = await cookie(clone.meta.accounts.buyer.id);
async function time(name: string, path: string, c: string, runs = 5) {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const res = await fetch(base + path, { headers: { cookie: c } });
    bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) throw new Error(`${path} ${res.status}`);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${name}: median ${ms[Math.floor(runs / 2)]!.toFixed(0)} ms, max ${ms[runs - 1]!.toFixed(0)} ms, ${(bytes / 1024).toFixed(0)} kB`);
}
await time('statement, referrer (124,876 entries), first page', '/api/users/profile/statement', referrer);
await time('statement, buyer (100,122 entries), first page', '/api/users/profile/statement', buyer);
await time('overview, default 30 days', '/api/admin/overview', admin);
await time('overview, a year', '/api/admin/overview?from=2025-11-27&to=2026-11-26', admin, 3);
await time('order search by reference', '/api/orders?q=ORD-7F3K2QXM', admin);
await time('ledger CSV, a month', '/api/admin/export/ledger.csv?from=2026-10-01&to=2026-10-31', admin, 1);
server.close();
await runtime.close();
await env.close();
await clone.drop();
process.exit(0);
