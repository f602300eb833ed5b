import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export { Prisma, PrismaClient } from '../generated/prisma/client.ts';
export type * from '../generated/prisma/client.ts';

export type Db = PrismaClient;

/** A Prisma client over the pg driver adapter (no native query engine). */
export function createDb(opts: { url: string; poolSize?: number }): Db {
  const adapter = new PrismaPg({
    connectionString: opts.url,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // Bursts on one row (the last items of a package, one user's cashouts) queue on its
  // lock: transactions may wait longer for a connection than Prisma's 2 s default
  // rather than fail; a pool that stays exhausted past that is a 503 (error handler).
  return new PrismaClient({ adapter, transactionOptions: { maxWait: 10_000, timeout: 20_000 } });
}

/** True when the database answers a trivial query within the timeout. */
export async function pingDb(db: Db, timeoutMs = 2_000): Promise<boolean> {
  try {
    await withTimeout(db.$queryRaw`SELECT 1`, timeoutMs);
    return true;
  } catch {
    return false;
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
