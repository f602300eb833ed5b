// Runs `prisma generate` without Prisma's native schema-engine download, which these
// machines cannot make: generate only needs the engine's path to exist (it uses the
// WebAssembly build itself). See ../shared/ENVIRONMENT.md.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(root, 'node_modules', '.bin', 'prisma');
if (!existsSync(bin)) {
  console.log('prisma CLI not installed yet; skipping generate');
  process.exit(0);
}
if (!existsSync(path.join(root, 'prisma', 'schema.prisma'))) {
  // The production image installs its dependencies without the schema: it takes the
  // client generated in the build stage.
  console.log('no prisma/schema.prisma here; skipping generate');
  process.exit(0);
}
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.CHECKPOINT_DISABLE = '1';
const result = spawnSync(bin, ['generate', '--schema', 'prisma/schema.prisma'], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
