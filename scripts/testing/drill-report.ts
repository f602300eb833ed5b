import { appendFileSync } from 'node:fs';

/**
 * What a reliability drill observed, in a sentence built from the values it measured.
 * `npm run drills` (bench/drills.ts) sets DRILL_REPORT and prints these beside each
 * drill's result; in a plain test run it does nothing.
 */
export function reportDrill(testName: string, observed: string): void {
  const file = process.env.DRILL_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ test: testName, observed })}\n`);
}
