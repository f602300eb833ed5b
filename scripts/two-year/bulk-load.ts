// Loading tens of millions of rows into indexed tables updates every index row by row, in
// random order (UUID keys); building an index over a full table is one sort. So the load
// drops the keys, indexes and foreign keys of the shop's tables, and puts back exactly
// what it dropped, read from the catalog beforehand (the same names and definitions the
// migrations created), then checks the catalog reads the same again.
import type pg from 'pg';
import type { Step } from './runner.ts';

export type SchemaObject = { name: string; table: string; def: string };
export type LoadObjects = { keys: SchemaObject[]; indexes: SchemaObject[]; foreignKeys: SchemaObject[] };

// Prisma's own bookkeeping is left alone.
const SKIP_TABLES = `('_prisma_migrations')`;

export async function readLoadObjects(client: pg.Client): Promise<LoadObjects> {
  const constraints = await client.query<SchemaObject & { type: string }>(`
    SELECT c.conname AS name, t.relname AS table, pg_get_constraintdef(c.oid) AS def, c.contype AS type
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace s ON s.oid = t.relnamespace
    WHERE s.nspname = 'public' AND c.contype IN ('p', 'u', 'f') AND t.relname NOT IN ${SKIP_TABLES}
    ORDER BY t.relname, c.conname`);
  const indexes = await client.query<SchemaObject>(`
    SELECT ci.relname AS name, t.relname AS table, pg_get_indexdef(i.indexrelid) AS def
    FROM pg_index i JOIN pg_class ci ON ci.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_namespace s ON s.oid = t.relnamespace
    WHERE s.nspname = 'public' AND t.relname NOT IN ${SKIP_TABLES}
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
    ORDER BY t.relname, ci.relname`);
  const strip = ({ name, table, def }: SchemaObject) => ({ name, table, def });
  return {
    keys: constraints.rows.filter((c) => c.type !== 'f').map(strip),
    indexes: indexes.rows.map(strip),
    foreignKeys: constraints.rows.filter((c) => c.type === 'f').map(strip),
  };
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function dropSql(objects: LoadObjects): string {
  return [
    ...objects.foreignKeys.map((f) => `ALTER TABLE ${q(f.table)} DROP CONSTRAINT ${q(f.name)};`),
    ...objects.indexes.map((i) => `DROP INDEX ${q(i.name)};`),
    ...objects.keys.map((k) => `ALTER TABLE ${q(k.table)} DROP CONSTRAINT ${q(k.name)};`),
  ].join('\n');
}

/**
 * Steps that put everything back, biggest tables first so the long builds start early:
 * keys, then indexes, then the foreign keys, added without a check and validated one by
 * one (a validation locks only its own table, so two run side by side).
 */
export function restoreSteps(objects: LoadObjects, tableBytes: Map<string, number>, after: string[]): Step[] {
  const bySize = (a: SchemaObject, b: SchemaObject) => (tableBytes.get(b.table) ?? 0) - (tableBytes.get(a.table) ?? 0);
  const keys: Step[] = [...objects.keys].sort(bySize).map((k) => ({
    name: `key ${k.name}`,
    table: 'keys and indexes',
    after,
    sql: `ALTER TABLE ${q(k.table)} ADD CONSTRAINT ${q(k.name)} ${k.def}`,
  }));
  const indexes: Step[] = [...objects.indexes].sort(bySize).map((i) => ({ name: `index ${i.name}`, table: 'keys and indexes', after, sql: i.def }));
  const built = [...keys, ...indexes].map((s) => s.name);
  const addForeignKeys: Step = {
    name: 'foreign keys added',
    table: 'foreign keys',
    after: built,
    sql: objects.foreignKeys.map((f) => `ALTER TABLE ${q(f.table)} ADD CONSTRAINT ${q(f.name)} ${f.def} NOT VALID`),
  };
  const validations: Step[] = [...objects.foreignKeys].sort(bySize).map((f) => ({
    name: `check ${f.name}`,
    table: 'foreign keys',
    after: [addForeignKeys.name],
    sql: `ALTER TABLE ${q(f.table)} VALIDATE CONSTRAINT ${q(f.name)}`,
  }));
  return [...keys, ...indexes, addForeignKeys, ...validations];
}

/** Throws unless the catalog holds exactly the keys, indexes and foreign keys read before the load. */
export function assertSameObjects(before: LoadObjects, after: LoadObjects): void {
  const lines = (o: LoadObjects) =>
    new Set(Object.entries(o).flatMap(([kind, list]) => (list as SchemaObject[]).map((x) => `${kind} ${x.table}.${x.name}: ${x.def}`)));
  const a = lines(before);
  const b = lines(after);
  const missing = [...a].filter((x) => !b.has(x));
  const extra = [...b].filter((x) => !a.has(x));
  if (missing.length || extra.length) {
    throw new Error(`The schema differs after the load:\n${[...missing.map((x) => `- ${x}`), ...extra.map((x) => `+ ${x}`)].join('\n')}`);
  }
}
