import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from './paths.ts';

/**
 * Makes sure Postgres and Redis are reachable, in this order of preference:
 * 1. DATABASE_URL / REDIS_URL (or the standard local ports) when they answer;
 * 2. servers started from this machine's binaries under `.data/` on other ports;
 * 3. `docker compose up -d postgres redis` when a Docker engine answers.
 * Returns URLs of a server (Postgres: its maintenance database `postgres`).
 */
const DATA_DIR = path.join(REPO_ROOT, '.data');
const LOCAL_PG_PORT = 54329;
const LOCAL_REDIS_PORT = 63799;
/** Variables docker-compose.yml requires (`${NAME:?...}`) for the app services. */
export const COMPOSE_REQUIRED = ['ETH_RPC_URL', 'RECEIVING_ADDRESS', 'PAYOUT_ADDRESSES', 'JWT_SECRET', 'SMTP_URL'];

export type Services = { postgresAdminUrl: string; redisUrl: string; started: string[] };

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function pgAnswers(url: string, timeoutMs = 3_000): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export function redisAnswers(url: string, timeoutMs = 2_000): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => {
      const auth = u.password ? `AUTH ${decodeURIComponent(u.password)}\r\n` : '';
      socket.write(`${auth}PING\r\n`);
    });
    socket.on('data', (buf) => done(buf.toString().includes('PONG')));
  });
}

function findPgBin(name: string): string | undefined {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    for (const version of readdirSync(base).sort().reverse()) {
      const candidate = path.join(base, version, 'bin', name);
      if (existsSync(candidate)) return candidate;
    }
  }
  const which = spawnSync('which', [name], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

function asPostgresUser(cmd: string, args: string[]): string[] {
  // Postgres refuses to run as root.
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', cmd, ...args] : [cmd, ...args];
}

function run(argv: string[]): void {
  const [cmd, ...args] = argv;
  execFileSync(cmd as string, args, { stdio: 'pipe' });
}

export async function startLocalPostgres(): Promise<string | undefined> {
  const initdb = findPgBin('initdb');
  const pgCtl = findPgBin('pg_ctl');
  if (!initdb || !pgCtl) return undefined;
  const url = `postgresql://postgres@127.0.0.1:${LOCAL_PG_PORT}/postgres`;
  if (await pgAnswers(url)) return url;
  const dir = path.join(DATA_DIR, 'postgres');
  mkdirSync(DATA_DIR, { recursive: true });
  const root = process.getuid?.() === 0;
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true });
    if (root) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
    run(asPostgresUser(initdb, ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']));
  }
  const log = path.join(DATA_DIR, 'postgres.log');
  writeFileSync(log, '', { flag: 'a' });
  if (root) chownSync(log, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  run(
    asPostgresUser(pgCtl, [
      '-D', dir, '-l', log, '-w', '-t', '30', 'start',
      '-o', `-p ${LOCAL_PG_PORT} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
    ]),
  );
  return (await pgAnswers(url)) ? url : undefined;
}

export async function startLocalRedis(): Promise<string | undefined> {
  const bin = spawnSync('which', ['redis-server'], { encoding: 'utf8' });
  if (bin.status !== 0) return undefined;
  const url = `redis://127.0.0.1:${LOCAL_REDIS_PORT}`;
  if (await redisAnswers(url)) return url;
  mkdirSync(DATA_DIR, { recursive: true });
  run([
    bin.stdout.trim(), '--daemonize', 'yes', '--bind', '127.0.0.1', '--port', String(LOCAL_REDIS_PORT),
    '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction',
    '--dir', DATA_DIR, '--logfile', path.join(DATA_DIR, 'redis.log'),
  ]);
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url)) return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

function dockerEngineAnswers(): boolean {
  return spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

export async function ensureServices(log: (msg: string) => void = () => {}): Promise<Services> {
  const started: string[] = [];
  const pgCandidates = [process.env.DATABASE_URL, 'postgresql://postgres@127.0.0.1:5432/postgres'].filter(Boolean) as string[];
  let postgresAdminUrl: string | undefined;
  for (const url of pgCandidates) {
    const admin = withDatabase(url, 'postgres');
    if (await pgAnswers(admin)) {
      postgresAdminUrl = admin;
      break;
    }
  }
  const redisCandidates = [process.env.REDIS_URL, 'redis://127.0.0.1:6379'].filter(Boolean) as string[];
  let redisUrl: string | undefined;
  for (const url of redisCandidates) {
    if (await redisAnswers(url)) {
      redisUrl = url;
      break;
    }
  }
  if (!postgresAdminUrl) {
    log('Postgres is not answering; starting one under .data/postgres');
    postgresAdminUrl = await startLocalPostgres().catch((err) => {
      log(`could not start a local Postgres: ${err instanceof Error ? err.message : err}`);
      return undefined;
    });
    if (postgresAdminUrl) started.push('postgres');
  }
  if (!redisUrl) {
    log('Redis is not answering; starting one on port ' + LOCAL_REDIS_PORT);
    redisUrl = await startLocalRedis().catch(() => undefined);
    if (redisUrl) started.push('redis');
  }
  if ((!postgresAdminUrl || !redisUrl) && dockerEngineAnswers()) {
    log('starting postgres and redis with docker compose');
    // Only the two services: the app's required variables (checked when the file is read)
    // get placeholders, since nothing here uses them.
    const placeholders = Object.fromEntries(COMPOSE_REQUIRED.map((name) => [name, process.env[name] ?? 'unused-by-postgres-and-redis']));
    execFileSync('docker', ['compose', 'up', '-d', '--wait', 'postgres', 'redis'], { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...placeholders } });
    postgresAdminUrl ??= 'postgresql://postgres:postgres@127.0.0.1:5432/postgres';
    redisUrl ??= 'redis://127.0.0.1:6379';
    started.push('docker');
  }
  if (!postgresAdminUrl) throw new Error('No Postgres: set DATABASE_URL, install PostgreSQL, or run a Docker engine.');
  if (!redisUrl) throw new Error('No Redis: set REDIS_URL, install redis-server, or run a Docker engine.');
  return { postgresAdminUrl, redisUrl, started };
}
