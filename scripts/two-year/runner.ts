// Runs the generator's SQL steps over a few connections at once: a step starts on the
// first free connection once the steps it needs are done. Postgres runs each INSERT ...
// SELECT on one core, so two connections keep both cores of a small machine busy.
import type pg from 'pg';

export type Step = {
  name: string;
  /** The table it fills, for the per-table summary. */
  table?: string;
  /** Steps that must be done before this one starts. */
  after?: string[];
  /** Run one after another in one transaction per statement; row counts are added up. */
  sql: string | string[];
};

export type Timing = { step: string; table?: string; rows: number; ms: number };

export type Log = (line: string) => void;

export async function runSteps(lanes: pg.Client[], steps: Step[], log: Log): Promise<Timing[]> {
  const names = new Set(steps.map((s) => s.name));
  for (const step of steps) {
    const unknown = (step.after ?? []).filter((name) => !names.has(name));
    if (unknown.length) throw new Error(`step ${step.name} waits for unknown step(s) ${unknown.join(', ')}`);
  }
  const timings: Timing[] = [];
  const done = new Set<string>();
  const pending = [...steps];
  const free = [...lanes];
  const running = new Set<Promise<void>>();
  let failure: unknown;

  const start = (step: Step, lane: pg.Client) => {
    const work = (async () => {
      const t0 = performance.now();
      let rows = 0;
      for (const sql of Array.isArray(step.sql) ? step.sql : [step.sql]) {
        const result = await lane.query(sql);
        // A multi-statement string answers with one result per statement.
        for (const r of Array.isArray(result) ? result : [result]) {
          if (r.command === 'INSERT' || r.command === 'SELECT') rows += r.rowCount ?? 0;
        }
      }
      const ms = performance.now() - t0;
      done.add(step.name);
      // A step with no SQL only joins others.
      if (step.sql.length === 0) return;
      timings.push({ step: step.name, table: step.table, rows, ms });
      // The many quick ones (small tables' indexes, say) only in the per-table summary.
      if (rows > 0 || ms >= 1000) log(`  ${step.name.padEnd(44)} ${rows.toLocaleString('en-US').padStart(12)} rows ${(ms / 1000).toFixed(1).padStart(7)} s`);
    })()
      .catch((error: unknown) => {
        failure ??= new Error(`step ${step.name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      })
      .finally(() => {
        free.push(lane);
        running.delete(work);
      });
    running.add(work);
  };

  while ((pending.length > 0 || running.size > 0) && failure === undefined) {
    while (free.length > 0) {
      const index = pending.findIndex((s) => (s.after ?? []).every((name) => done.has(name)));
      if (index < 0) break;
      const [step] = pending.splice(index, 1);
      start(step as Step, free.shift() as pg.Client);
    }
    if (running.size === 0) {
      if (pending.length > 0) throw new Error(`steps waiting on each other: ${pending.map((s) => s.name).join(', ')}`);
      break;
    }
    await Promise.race(running);
  }
  await Promise.all(running);
  if (failure !== undefined) throw failure;
  return timings;
}
