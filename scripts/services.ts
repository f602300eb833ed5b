import { ensureServices } from './lib/services.ts';

// `npm run services`: make sure Postgres and Redis answer; print where they are.
const services = await ensureServices((msg) => console.log(`[services] ${msg}`));
console.log(`Postgres: ${services.postgresAdminUrl}`);
console.log(`Redis:    ${services.redisUrl}`);
if (services.started.length) console.log(`started: ${services.started.join(', ')}`);
