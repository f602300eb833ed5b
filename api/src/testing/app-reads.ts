import { createApp } from '../app.ts';
import type { Runtime } from '@shop/core';
import { readsOf, recordingDb } from '../../../scripts/testing/query-plans.ts';

/**
 * Runs `run` against the api on a client that records every statement, then measures each
 * with EXPLAIN ANALYZE (scripts/testing/query-plans.ts): `tooMuch` lists the scans of the
 * statements naming `tables` that read more than `bound` rows (with `noSeqScan`: only scans
 * of `tables` themselves, and any sequential scan of them), so a test says "reads the open
 * work, not the history".
 */
export async function appReads<T>(
  opts: { url: string; runtime: Runtime; tables: string[]; bound: number; noSeqScan?: boolean },
  run: (app: ReturnType<typeof createApp>) => Promise<T>,
): Promise<{ result: T; tooMuch: string[]; statements: number }> {
  const rec = recordingDb(opts.url);
  let result: T;
  try {
    result = await run(createApp({ ...opts.runtime, db: rec.db }));
  } finally {
    await rec.close();
  }
  const reads = await readsOf(opts.url, rec.queries, opts.tables);
  const tooMuch = reads.flatMap(({ sql, scans }) =>
    scans
      .filter((s) => (opts.noSeqScan ? opts.tables.includes(s.table) && (s.rows > opts.bound || s.node === 'Seq Scan') : s.rows > opts.bound))
      .map((s) => `${s.node} on ${s.table} (${s.index ?? 'no index'}) read ${s.rows} rows: ${sql}`),
  );
  return { result, tooMuch, statements: reads.length };
}
