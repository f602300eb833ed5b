import { expect } from 'vitest';
import { describeReport, ledgerSums, reconcile, type AppConfig, type Db } from '@shop/core';
import type { PublicClient } from 'viem';

/**
 * Runs the reconciler over a test's database and fails on any discrepancy: every test
 * file that moves money ends with it (the api and payment kits and the browser journeys
 * call it when they close), so a money path that breaks an invariant fails its own test.
 */
export async function expectBooksBalanced(
  deps: { db: Db; chain: PublicClient; config: AppConfig },
  where: string,
  opts: { skip?: string[] } = {},
): Promise<void> {
  const report = await reconcile(deps, { blockWindow: 'all' });
  report.discrepancies = report.discrepancies.filter((d) => !opts.skip?.includes(d.check));
  if (report.discrepancies.length > 0) throw new Error(`The books do not reconcile after ${where}.\n${describeReport(report)}`);
}

/** A user's balances equal the sums of their ledger entries, and neither is negative. */
export async function expectBalancesEqualLedger(db: Db, userId: string): Promise<void> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  const sums = await ledgerSums(db, userId);
  expect(user.activeBalance.toFixed(2)).toBe(sums.active.toFixed(2));
  expect(user.passiveBalance.toFixed(2)).toBe(sums.passive.toFixed(2));
  expect(user.activeBalance.gte(0) && user.passiveBalance.gte(0)).toBe(true);
}
