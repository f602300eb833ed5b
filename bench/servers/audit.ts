// The full audit (the reconciler with no `since`: every row, in keyset batches) in a
// process of its own, its heap capped by the benchmark (NODE_OPTIONS
// --max-old-space-size): a walk that held what it read would run out and fail here. It
// reports its time, its resident memory's peak above where it started, and what it found.
import { createChainClient, createDb, loadConfig, reconcile } from '@shop/core';

const config = loadConfig(process.env);
const db = createDb({ url: config.databaseUrl, poolSize: 4 });
const base = process.memoryUsage().rss;
let peak = base;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
const started = performance.now();
const report = await reconcile({ db, chain: createChainClient(config.ethRpcUrl), config }, { chain: false });
clearInterval(timer);
process.send?.({
  type: 'done',
  seconds: (performance.now() - started) / 1000,
  rssGrowthMb: (Math.max(peak, process.memoryUsage().rss) - base) / 2 ** 20,
  discrepancies: report.discrepancies.length,
});
await db.$disconnect();
process.disconnect?.();
