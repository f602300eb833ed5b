// What a query costs as the shop grows: the rows each of its scans reads, measured by
// Postgres itself (EXPLAIN ANALYZE), so a test can say "reads the open work, not the
// history" whatever index or plan achieves it.
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Db } from '@shop/core';

export type RecordedQuery = { sql: string; params: unknown[] };

/** A Prisma client on `url` that records every statement it sends, with its parameters. */
export function recordingDb(url: string): { db: Db; queries: RecordedQuery[]; close(): Promise<void> } {
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 2 }), log: [{ emit: 'event', level: 'query' }] });
  const queries: RecordedQuery[] = [];
  db.$on('query', (e) => {
    const params = e.params ? (JSON.parse(e.params) as unknown[]) : [];
    queries.push({ sql: e.query, params });
  });
  return { db, queries, close: () => db.$disconnect() };
}

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
};

export type ScanRead = { table: string; node: string; index: string | null; rows: number };

/**
 * Runs one statement under EXPLAIN ANALYZE in a transaction that is rolled back (a write
 * changes nothing) and returns, for each scan of a table, the rows it read: those it
 * returned and those its filter threw away, over all its loops.
 */
export async function scansOf(url: string, q: RecordedQuery): Promise<ScanRead[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SAVEPOINT replay');
    const scans: ScanRead[] = [];
    let res;
    try {
      res = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${q.sql}`, q.params);
    } catch (err) {
      // An insert of a row the recorded run already wrote (an event's id, say) cannot run
      // twice: its plan is read unexecuted, a sequential scan counted as the table's size.
      if ((err as { code?: string }).code !== '23505') throw err;
      await client.query('ROLLBACK TO SAVEPOINT replay');
      const plan = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${q.sql}`, q.params);
      const walkPlanned = async (n: PlanNode) => {
        if (n['Relation Name']) {
          const size = await client.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = $1`, [n['Relation Name']]);
          const rows = n['Node Type'] === 'Seq Scan' ? Math.max(0, size.rows[0]?.n ?? 0) : (n['Plan Rows'] ?? 0);
          scans.push({ table: n['Relation Name'], node: `${n['Node Type']} (planned)`, index: n['Index Name'] ?? null, rows });
        }
        for (const c of n.Plans ?? []) await walkPlanned(c);
      };
      await walkPlanned(plan.rows[0]!['QUERY PLAN'][0]!.Plan);
      return scans;
    }
    const walk = (n: PlanNode) => {
      if (n['Relation Name']) {
        const perLoop = (n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0);
        scans.push({ table: n['Relation Name'], node: n['Node Type'], index: n['Index Name'] ?? null, rows: perLoop * (n['Actual Loops'] ?? 1) });
      }
      for (const c of n.Plans ?? []) walk(c);
    };
    walk(res.rows[0]!['QUERY PLAN'][0]!.Plan);
    return scans;
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end();
  }
}

/** The recorded statements that read `tables` (not BEGIN/COMMIT), with what each scan read. */
export async function readsOf(url: string, queries: RecordedQuery[], tables: string[]): Promise<{ sql: string; scans: ScanRead[] }[]> {
  const out: { sql: string; scans: ScanRead[] }[] = [];
  for (const q of queries) {
    if (!/^\s*(SELECT|WITH|UPDATE|DELETE)\b/i.test(q.sql)) continue;
    if (!tables.some((t) => q.sql.includes(`"${t}"`))) continue;
    out.push({ sql: q.sql.replace(/\s+/g, ' ').trim(), scans: await scansOf(url, q) });
  }
  return out;
}
