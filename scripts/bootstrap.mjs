// `npm start` / `npm test` on a fresh clone: installs dependencies when they are missing
// (tsx is one of them), then runs the TypeScript script given as the argument.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const [script, ...args] = process.argv.slice(2);
if (!existsSync(path.join(root, 'node_modules', 'tsx')) || !existsSync(path.join(root, 'core', 'src', 'generated', 'prisma'))) {
  console.log('Installing dependencies (npm ci)...');
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, script), ...args], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? (result.signal ? 1 : 0));
