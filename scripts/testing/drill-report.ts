import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';

/**
 * What the running reliability drill observed, in a sentence built from the values it
 * measured. `npm run drills` (bench/drills.ts) sets DRILL_REPORT and prints these beside
 * each drill's result, matched by the test's name; in a plain test run it does nothing.
 */
export function reportDrill(observed: string): void {
  const file = process.env.DRILL_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ test: expect.getState().currentTestName, observed })}\n`);
}
