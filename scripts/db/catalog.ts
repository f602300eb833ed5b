// A comparable description of a database's public schema, read from pg_catalog, for the
// drift test: tables, columns, constraints, indexes and enums, each as key -> definition.
import { withClient } from './postgres-admin.ts';

export type Catalog = Map<string, string>;

export type CatalogOptions = {
  /** Objects (tables, constraints, indexes, types) left out of the description. */
  ignore?: (name: string) => boolean;
};

const qualified = (table: string, name: string) => `"${table}"."${name}"`;

export async function readCatalog(databaseUrl: string, options: CatalogOptions = {}): Promise<Catalog> {
  const ignore = options.ignore ?? (() => false);
  const catalog: Catalog = new Map();
  await withClient(databaseUrl, async (client) => {
    const tables = await client.query<{ table: string; kind: string }>(`
      SELECT c.relname AS table, c.relkind AS kind
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')`);
    for (const { table, kind } of tables.rows) {
      if (!ignore(table)) catalog.set(`table "${table}"`, kind === 'r' || kind === 'p' ? 'table' : 'view');
    }

    // Column order is left out: a column added by a later migration comes last, while a
    // database built from the schema puts it where the model declares it. Same shape.
    const columns = await client.query<{ table: string; column: string; type: string; notnull: boolean; default: string | null; identity: string; generated: string }>(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
             a.attnotnull AS notnull, pg_get_expr(d.adbin, d.adrelid) AS default,
             a.attidentity AS identity, a.attgenerated AS generated
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`);
    for (const col of columns.rows) {
      if (ignore(col.table)) continue;
      const parts = [col.type, col.notnull ? 'NOT NULL' : 'NULL'];
      if (col.default !== null) parts.push(`DEFAULT ${col.default}`);
      if (col.identity) parts.push(`IDENTITY ${col.identity}`);
      if (col.generated) parts.push(`GENERATED ${col.generated}`);
      catalog.set(`column ${qualified(col.table, col.column)}`, parts.join(' '));
    }

    // Primary keys, foreign keys (with their ON DELETE / ON UPDATE actions), unique and
    // check constraints, as Postgres itself prints them.
    const constraints = await client.query<{ table: string; name: string; definition: string }>(`
      SELECT c.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS definition
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public'`);
    for (const con of constraints.rows) {
      if (ignore(con.table) || ignore(con.name)) continue;
      catalog.set(`constraint ${qualified(con.table, con.name)}`, con.definition);
    }

    const indexes = await client.query<{ table: string; name: string; definition: string }>(`
      SELECT tablename AS table, indexname AS name, indexdef AS definition
      FROM pg_indexes WHERE schemaname = 'public'`);
    for (const idx of indexes.rows) {
      if (ignore(idx.table) || ignore(idx.name)) continue;
      catalog.set(`index ${qualified(idx.table, idx.name)}`, idx.definition);
    }

    // Values compared as a set: a value added later by ALTER TYPE ... ADD VALUE lands at
    // the end, wherever the schema lists it.
    const enums = await client.query<{ name: string; values: string[] }>(`
      SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumlabel) AS values
      FROM pg_type t
      JOIN pg_enum e ON e.enumtypid = t.oid
      JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public'
      GROUP BY t.typname`);
    for (const en of enums.rows) {
      if (!ignore(en.name)) catalog.set(`enum "${en.name}"`, en.values.join(', '));
    }
  });
  return catalog;
}

/** Human-readable differences, one line each; empty when the catalogs agree. */
export function diffCatalogs(left: Catalog, right: Catalog, labels: { left: string; right: string }): string[] {
  const lines: string[] = [];
  const keys = [...new Set([...left.keys(), ...right.keys()])].sort();
  for (const key of keys) {
    const a = left.get(key);
    const b = right.get(key);
    if (a === b) continue;
    if (b === undefined) lines.push(`only in ${labels.left}: ${key}: ${a}`);
    else if (a === undefined) lines.push(`only in ${labels.right}: ${key}: ${b}`);
    else lines.push(`differs: ${key}\n    ${labels.left}: ${a}\n    ${labels.right}: ${b}`);
  }
  return lines;
}
