// Prisma's schema engine, compiled to WebAssembly, driven through the pg driver adapter.
// The native engine `prisma migrate` needs cannot be downloaded on our machines (see
// ../shared/ENVIRONMENT.md); this does the two things we need from it: diff two schemas
// into SQL and apply the migration folders exactly as `prisma migrate deploy` does, so
// the history stays deployable with the standard CLI where it works.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const schemaPath = path.join(rootDir, 'prisma', 'schema.prisma');
export const migrationsDir = path.join(rootDir, 'prisma', 'migrations');

const noFilter: SchemaFilter = { externalTables: [], externalEnums: [] };

type EngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

let engineModule: Promise<EngineModule> | undefined;

// The project's lib settings (ES2023, no DOM) leave the WebAssembly global untyped.
type WasmApi = {
  instantiate(
    bytes: Uint8Array,
    imports: Record<string, Record<string, unknown>>,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
};
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

// The engine arms a 10 s timer around each command (its migration lock timeout) and never
// clears it, which would keep the process alive for 10 s after the work is done. We keep
// the timers it sets and clear them once no engine is running: nothing is left to wake.
const engineTimers = new Set<NodeJS.Timeout>();
let runningEngines = 0;

function engineSetTimeout(callback: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    engineTimers.delete(timer);
    callback();
  }, ms);
  engineTimers.add(timer);
  return timer;
}

function clearIdleEngineTimers(): void {
  if (runningEngines > 0) return;
  for (const timer of engineTimers) clearTimeout(timer);
  engineTimers.clear();
}

// The package's entry does `import * as wasm from "./x.wasm"`, which Node only accepts
// behind --experimental-wasm-modules. Instantiating the .wasm against the package's own
// JS glue does the same without a flag. One instance serves every engine in the process.
function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const glue: EngineModule = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    // createRequire, not import.meta.resolve: vitest's module runner does not implement the latter.
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
    const imports: Record<string, unknown> = { ...glue };
    const setTimeoutImport = Object.keys(imports).find((name) => name.startsWith('__wbg_setTimeout_'));
    if (setTimeoutImport) imports[setTimeoutImport] = engineSetTimeout;
    const { instance } = await wasmApi.instantiate(bytes, { './schema_engine_bg.js': imports });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return engineModule;
}

// The engine runs each migration through executeScript. The pg adapter's version splits the
// script on every ';' (so a ';' in a comment, string or function body breaks it) and runs
// the pieces one by one (so a failure leaves half a migration applied). The native engine
// sends the script as one simple-protocol query, which Postgres runs as one implicit
// transaction; executeRaw without parameters does exactly that, with the adapter's error
// mapping.
function runScriptWhole(adapter: SqlDriverAdapter): SqlDriverAdapter {
  adapter.executeScript = async (script: string) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return adapter;
}

// The engine connects once when created and never hands its adapters back, so we keep
// them to dispose (and end their pg pools) ourselves; otherwise the process stays alive.
function trackAdapters(factory: SqlMigrationAwareDriverAdapterFactory) {
  const adapters: SqlDriverAdapter[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = runScriptWhole(await factory.connect());
      adapters.push(adapter);
      return adapter;
    },
    async connectToShadowDb() {
      const adapter = runScriptWhole(await factory.connectToShadowDb());
      adapters.push(adapter);
      return adapter;
    },
  };
  const disposeAll = async () => {
    await Promise.allSettled(adapters.splice(0).map((adapter) => adapter.dispose()));
  };
  return { tracked, disposeAll };
}

function forwardEngineLog(line: string): void {
  let level = 'INFO';
  try {
    level = (JSON.parse(line) as { level?: string }).level ?? level;
  } catch {
    // not JSON: print it as it came
    level = 'WARN';
  }
  if (level === 'WARN' || level === 'ERROR') process.stderr.write(`schema-engine: ${line.trim()}\n`);
}

async function withEngine<T>(
  databaseUrl: string,
  schemaText: string,
  run: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const { tracked, disposeAll } = trackAdapters(new PrismaPg({ connectionString: databaseUrl }));
  let engine: SchemaEngine | undefined;
  runningEngines += 1;
  try {
    engine = await SchemaEngine.new(
      { datamodels: [['schema.prisma', schemaText]] },
      forwardEngineLog,
      bindMigrationAwareSqlAdapterFactory(tracked),
    );
    return await run(engine);
  } finally {
    engine?.free();
    await disposeAll();
    runningEngines -= 1;
    clearIdleEngineTimers();
  }
}

// The engine checks the server when it starts even for a schema-to-schema diff, so diffSql
// needs some database to reach; it reads nothing from it.
function defaultServerUrl(): string {
  const fromEnv = process.env.DATABASE_URL;
  if (!fromEnv) return 'postgresql://postgres@127.0.0.1:5432/postgres';
  const url = new URL(fromEnv);
  url.pathname = '/postgres';
  return url.toString();
}

/** SQL that takes a database from `from` (nothing, or a Prisma schema) to the `to` schema; '' when they agree. */
export async function diffSql(
  from: 'empty' | { schemaText: string },
  to: { schemaText: string },
  options: { serverUrl?: string } = {},
): Promise<string> {
  return withEngine(options.serverUrl ?? defaultServerUrl(), to.schemaText, async (engine) => {
    const result = await engine.diff({
      from:
        from === 'empty'
          ? { tag: 'empty' }
          : { tag: 'schemaDatamodel', files: [{ path: 'from.prisma', content: from.schemaText }] },
      to: { tag: 'schemaDatamodel', files: [{ path: 'to.prisma', content: to.schemaText }] },
      script: true,
      exitCode: null,
      filters: noFilter,
    });
    const sql = result.stdout ?? '';
    // An empty diff comes back as a comment only.
    return /^\s*(--[^\n]*\s*)*$/.test(sql) ? '' : sql;
  });
}

/** The migration folders in the shape the engine (and the Prisma CLI) reads them. */
export async function readMigrationsList(dir: string = migrationsDir): Promise<MigrationList> {
  const lockfileContent = await readFile(path.join(dir, 'migration_lock.toml'), 'utf8').catch(() => null);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
  const migrationDirectories = await Promise.all(
    folders.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: await readFile(path.join(dir, name, 'migration.sql'), 'utf8').then(
          (value) => ({ tag: 'ok' as const, value }),
          (error: Error) => ({ tag: 'error' as const, value: error.message }),
        ),
      },
    })),
  );
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: lockfileContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/**
 * Applies the pending folders of prisma/migrations to the database and records them in
 * `_prisma_migrations`. The database must exist. Applying twice applies nothing the second time.
 */
export async function applyMigrations(
  databaseUrl: string,
  options: { migrationsDir?: string } = {},
): Promise<{ applied: string[] }> {
  const migrationsList = await readMigrationsList(options.migrationsDir);
  const schemaText = await readFile(schemaPath, 'utf8');
  return withEngine(databaseUrl, schemaText, async (engine) => {
    const output = await engine.applyMigrations({ migrationsList, filters: noFilter });
    return { applied: output.appliedMigrationNames };
  });
}
