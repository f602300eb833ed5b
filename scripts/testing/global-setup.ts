import type { TestProject } from 'vitest/node';
import { ensureServices } from '../lib/services.ts';
import { ensureTemplateDatabase } from '../db/test-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    templateDatabase: string;
    redisUrl: string;
  }
}

/** Once per run: services up, and a migrated template database every test file clones. */
export default async function setup(project: TestProject): Promise<void> {
  const services = await ensureServices((msg) => console.log(`[test setup] ${msg}`));
  const template = await ensureTemplateDatabase(services.postgresAdminUrl);
  project.provide('postgresAdminUrl', services.postgresAdminUrl);
  project.provide('templateDatabase', template);
  project.provide('redisUrl', services.redisUrl);
}
