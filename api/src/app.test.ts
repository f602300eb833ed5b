import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createRuntime, loadConfig } from '@shop/core';
import { createApp } from './app.ts';
import { createTestEnv, type TestEnv } from '../../scripts/testing/test-env.ts';

describe('api skeleton', () => {
  let env: TestEnv;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    env = await createTestEnv({ chain: true });
    app = createApp(env.runtime);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('reports every dependency healthy', async () => {
    const res = await request(app).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.checks.database.ok).toBe(true);
    expect(res.body.checks.redis.ok).toBe(true);
    expect(res.body.checks.chain).toMatchObject({ ok: true, chainId: 1 });
    expect(res.body.checks.queues.ok).toBe(true);
    expect(res.body.checks.queues.queues['payment-verify']).toMatchObject({ waiting: 0, failed: 0 });
  });

  it('answers 404 with a JSON message for unknown API routes', async () => {
    const res = await request(app).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found: GET /api/no-such-thing' });
  });

  it('answers 400 with a message for a malformed JSON body, without a stack trace', async () => {
    const res = await request(app).post('/api/health').set('content-type', 'application/json').send('{"oops":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Malformed JSON body' });
  });

  it('answers 503 naming what is down when the chain and database are unreachable', async () => {
    const broken = loadConfig({
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DATABASE'))),
      NODE_ENV: 'test',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/nowhere',
      REDIS_URL: env.config.redisUrl,
      ETH_RPC_URL: 'http://127.0.0.1:9',
      QUEUE_PREFIX: env.config.queuePrefix,
    });
    const runtime = createRuntime(broken, 'api');
    try {
      const res = await request(createApp(runtime)).get('/api/health');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('degraded');
      expect(res.body.checks.database.ok).toBe(false);
      expect(res.body.checks.chain.ok).toBe(false);
      expect(res.body.checks.redis.ok).toBe(true);
    } finally {
      await runtime.close();
    }
  });
});
