import { createChainClient, createDb, describeReport, getConfig, runReconciliation } from '@shop/core';

/**
 * `npm run reconcile`: checks the books of the shop at DATABASE_URL (and ETH_RPC_URL for
 * the counted transfers) once, keeps the report where the admin page and the metrics
 * read it, prints every discrepancy with its ids, and exits 1 when there is any.
 * `-- --all-blocks` checks every counted transfer against the chain, not only recent ones.
 */
const config = getConfig();
const db = createDb({ url: config.databaseUrl, poolSize: 2 });
try {
  const report = await runReconciliation(
    { db, config, chain: createChainClient(config.ethRpcUrl) },
    { blockWindow: process.argv.includes('--all-blocks') ? 'all' : undefined },
  );
  console.log(describeReport(report));
  process.exitCode = report.discrepancies.length > 0 ? 1 : 0;
} finally {
  await db.$disconnect();
}
