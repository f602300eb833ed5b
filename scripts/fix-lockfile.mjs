// The registry these machines use serves only the linux-x64 build of anvil, so npm
// leaves the other platforms' optional packages out of package-lock.json, and `npm ci`
// then refuses the lock file as out of sync. This restores those entries (as optional,
// platform-bound packages npm skips on other machines). Runs after every install.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const lockPath = path.join(root, 'package-lock.json');
if (!existsSync(lockPath)) process.exit(0);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages ?? {};
const platforms = { 'darwin-amd64': ['darwin', 'x64'], 'darwin-arm64': ['darwin', 'arm64'], 'linux-amd64': ['linux', 'x64'], 'linux-arm64': ['linux', 'arm64'], 'win32-amd64': ['win32', 'x64'] };
let changed = false;
for (const [key, meta] of Object.entries(packages)) {
  const match = /^node_modules\/(@foundry-rs\/anvil)$/.exec(key);
  if (!match) continue;
  for (const dep of Object.keys(meta.optionalDependencies ?? {})) {
    const entry = `node_modules/${dep}`;
    if (packages[entry]) continue;
    const suffix = dep.slice(dep.lastIndexOf('-', dep.lastIndexOf('-') - 1) + 1);
    const [os, cpu] = platforms[suffix] ?? [];
    if (!os) continue;
    packages[entry] = { version: meta.optionalDependencies[dep], cpu: [cpu], dev: true, optional: true, os: [os] };
    changed = true;
  }
}
if (changed) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
  console.log('package-lock.json: restored optional anvil platform entries');
}
