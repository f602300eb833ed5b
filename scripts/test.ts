import { spawnSync } from 'node:child_process';
import { ensureServices } from './lib/services.ts';
import { REPO_ROOT } from './lib/paths.ts';

/**
 * `npm test`: every check, in order, stopping at the first failure: type-checking,
 * lint, the production build of the web app, then every vitest project: unit and
 * integration tests against real services, web component tests, and the browser
 * journeys in headless Chromium. Services are started the same way `npm start` does.
 */
function step(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: REPO_ROOT, stdio: 'inherit', env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n${name} failed (exit ${result.status ?? result.signal}) after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${name} passed in ${seconds}s`);
}

const services = await ensureServices((msg) => console.log(`[services] ${msg}`));
const env = { ...process.env, DATABASE_URL: services.postgresAdminUrl, REDIS_URL: services.redisUrl };

step('typecheck (server)', 'npx', ['tsc', '-p', 'tsconfig.json']);
step('typecheck (web)', 'npx', ['tsc', '-p', 'web/tsconfig.json']);
step('lint', 'npx', ['eslint', '--max-warnings=0', '.']);
// The browser journeys test the production build of the web app.
step('build web', 'npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { ...env, NODE_ENV: 'production' });
step('tests', 'npx', ['vitest', 'run', ...process.argv.slice(2)], env);
