// Database-level chores (create, drop, point a URL elsewhere) that happen outside the
// database they concern, over a connection to the server's `postgres` database.
import pg from 'pg';

export function databaseNameOf(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`The URL names no database: ${redactUrl(databaseUrl)}`);
  return name;
}

/** The same server and credentials, another database. */
export function withDatabaseName(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

export function adminUrlFor(databaseUrl: string): string {
  return withDatabaseName(databaseUrl, 'postgres');
}

export function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<unparsable database URL>';
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates the database the URL names unless it exists. Returns whether it created it. */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseNameOf(databaseUrl);
  return withClient(adminUrlFor(databaseUrl), async (admin) => {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
      return true;
    } catch (error) {
      // Another process created it between our check and our CREATE (duplicate_database,
      // or a unique violation on pg_database when both CREATEs ran at once).
      const code = (error as { code?: string }).code;
      if (code === '42P04' || code === '23505') return false;
      throw error;
    }
  });
}
