import { describe, expect, it, vi } from 'vitest';
import express from 'express';
import request from 'supertest';
import { pino } from 'pino';
import { requestLog } from './request-log.ts';

type Line = { level: number; msg: string; reqId?: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number };

function appLogging(level: string) {
  const lines: Line[] = [];
  const logger = pino({ level }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  const app = express();
  app.use(requestLog(logger));
  app.get('/api/products', (_req, res) => void res.json([]));
  app.get('/api/orders/mine', (_req, res) => void res.json([]));
  app.get('/api/missing', (_req, res) => void res.status(404).json({ message: 'Not found' }));
  app.get('/api/boom', (req, res) => {
    req.log.error({ detail: 'the cause' }, 'something broke');
    res.status(500).json({ message: 'Internal server error' });
  });
  // Mounted the way the queue dashboard is: a separate Express app inside a router,
  // which swaps the request's prototype for its own.
  const sub = express();
  sub.get('/api/queues', (_req, res) => void res.json({ queues: [] }));
  const router = express.Router();
  router.use(sub);
  app.use('/admin/queues', router);
  return { app, lines };
}

const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 };
/** Until `check` passes: a request's line is written when its response has finished, which the client may see first. */
const until = (check: () => void) => vi.waitFor(check, { timeout: 30_000, interval: 10 });

describe('request log', () => {
  it('logs each request once when it ends, at a level from its status, with the request id', async () => {
    const { app, lines } = appLogging('info');
    await request(app).get('/api/orders/mine?x=1').set('x-request-id', 'abc-123');
    await request(app).get('/api/missing');
    await request(app).get('/api/boom');
    await until(() => expect(lines.filter((l) => l.res)).toHaveLength(3));

    const ended = lines.filter((l) => l.res);
    expect(ended.map((l) => [l.level, l.req?.url, l.res?.statusCode])).toEqual([
      [LEVEL.info, '/api/orders/mine?x=1', 200],
      [LEVEL.warn, '/api/missing', 404],
      [LEVEL.error, '/api/boom', 500],
    ]);
    expect(ended[0]?.reqId).toBe('abc-123');
    expect(typeof ended[0]?.responseTime).toBe('number');
    // What a handler logs carries the same generated id as the request's own line.
    const broke = lines.find((l) => l.msg === 'something broke');
    expect(broke?.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(broke?.reqId).toBe(ended[2]?.reqId);
  });

  it('logs a request answered by a mounted sub-app, without throwing from its listener', async () => {
    const { app, lines } = appLogging('info');
    const res = await request(app).get('/admin/queues/api/queues');
    expect(res.status).toBe(200);
    await until(() => expect(lines).toHaveLength(1));
    expect(lines.map((l) => [l.msg, l.req?.url, l.res?.statusCode])).toEqual([['request completed', '/admin/queues/api/queues', 200]]);
  });

  it('never throws from its listener, even when the log itself fails', async () => {
    let writes = 0;
    const logger = pino({ level: 'info' }, { write: () => { writes++; throw new Error('disk full'); } });
    const app = express();
    app.use(requestLog(logger));
    app.get('/api/orders/mine', (_req, res) => void res.json([]));
    expect((await request(app).get('/api/orders/mine')).status).toBe(200);
    expect((await request(app).get('/api/orders/mine')).status).toBe(200);
    // Both listeners ran (each tried its line, then the error about it) and the process goes on.
    await until(() => expect(writes).toBe(4));
    expect((await request(app).get('/api/orders/mine')).status).toBe(200);
  });

  it('logs successful catalogue reads at debug only, and cuts long request ids', async () => {
    const quiet = appLogging('info');
    await request(quiet.app).get('/api/products');
    // A request that is logged, after it: once its line is there, the catalogue read has ended unlogged.
    await request(quiet.app).get('/api/missing');
    await until(() => expect(quiet.lines).toHaveLength(1));
    expect(quiet.lines.map((l) => l.req?.url)).toEqual(['/api/missing']);

    const verbose = appLogging('debug');
    await request(verbose.app).get('/api/products').set('x-request-id', 'r'.repeat(500));
    await until(() => expect(verbose.lines).toHaveLength(1));
    expect(verbose.lines[0]).toMatchObject({ level: LEVEL.debug, msg: 'request completed', reqId: 'r'.repeat(100) });
  });

  it('hands each response sent whole to `sent` once, with its time, and a response the client left before is only logged', async () => {
    const lines: Line[] = [];
    const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
    const sent: { url: string; status: number; ms: number }[] = [];
    const app = express();
    app.use(requestLog(logger, (req, res, ms) => void sent.push({ url: req.originalUrl, status: res.statusCode, ms })));
    app.get('/api/orders/mine', (_req, res) => void res.json([]));
    app.get('/api/missing', (_req, res) => void res.status(404).json({ message: 'Not found' }));
    // Never answers: its client gives up.
    let arrived!: () => void;
    const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
    app.get('/api/slow', () => arrived());
    await request(app).get('/api/orders/mine');
    await request(app).get('/api/missing');
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const aborted = new AbortController();
    const gone = fetch(`http://127.0.0.1:${port}/api/slow`, { signal: aborted.signal }).catch(() => 'aborted');
    await slowArrived;
    aborted.abort();
    expect(await gone).toBe('aborted');
    await until(() => expect(lines.map((l) => l.msg)).toContain('request aborted'));
    server.close();
    expect(sent.map((s) => [s.url, s.status])).toEqual([
      ['/api/orders/mine', 200],
      ['/api/missing', 404],
    ]);
    for (const s of sent) expect(s.ms).toBeGreaterThan(0);
    // Its time is the one the log line gives.
    expect(lines.find((l) => l.req?.url === '/api/missing')?.responseTime).toBe(Math.round(sent[1]!.ms));
  });

  it('logs and drops a throw from `sent`, and still logs the request', async () => {
    const lines: Line[] = [];
    const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
    const app = express();
    app.use(requestLog(logger, () => {
      throw new Error('metrics broken');
    }));
    app.get('/api/orders/mine', (_req, res) => void res.json([]));
    expect((await request(app).get('/api/orders/mine')).status).toBe(200);
    await until(() => expect(lines.map((l) => l.msg)).toEqual(['could not record request metrics', 'request completed']));
  });
});
