// The image's HEALTHCHECK (plain JavaScript: it runs without tsx). The api is healthy
// when GET /api/health answers 200; the worker (SHOP_ROLE=worker) when it wrote its
// heartbeat file within the last minute (it does every 10 s while Redis is connected).
import { statSync } from 'node:fs';

const role = process.env.SHOP_ROLE ?? 'api';
if (role === 'worker') {
  const file = process.env.WORKER_HEARTBEAT_FILE || '/tmp/shop-worker-heartbeat';
  let age = Infinity;
  try {
    age = Date.now() - statSync(file).mtimeMs;
  } catch {
    // no heartbeat yet
  }
  process.exit(age < 60_000 ? 0 : 1);
}
const port = process.env.PORT || '5000';
try {
  const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(4_000) });
  process.exit(res.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
