// The reconciler over a generated shop. There is no chain behind the data, so the checks
// that ask the node are left out; every check of the books runs.
import { createChainClient, createDb, loadConfig, reconcile, type ReconcileReport } from '@shop/core';

export async function reconcileTwoYear(databaseUrl: string): Promise<{ report: ReconcileReport; seconds: number }> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  const db = createDb({ url: databaseUrl, poolSize: 2 });
  try {
    const t0 = performance.now();
    const report = await reconcile({ db, chain: createChainClient(config.ethRpcUrl), config }, { chain: false });
    return { report, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await db.$disconnect();
  }
}
