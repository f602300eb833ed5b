import { afterAll, describe, expect, it } from 'vitest';
import express from 'express';
import request from 'supertest';
import { createRedis, loadConfig } from '@shop/core';
import type { AppDeps } from '../deps.ts';
import { errorHandler } from './error-handler.ts';
import { rateLimit } from './rate-limit.ts';
import { startRedisServer } from '../../../scripts/testing/redis-server.ts';
import { freePort } from '../../../scripts/testing/smtp.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('rate limit', () => {
  it('answers 503 while Redis is unreachable and counts again once it is up (an api started before Redis)', async () => {
    const port = await freePort();
    const redis = createRedis(`redis://127.0.0.1:${port}`);
    cleanups.push(() => redis.disconnect());
    const config = loadConfig({ NODE_ENV: 'test', QUEUE_PREFIX: 'rltest' });
    const app = express();
    app.post('/login', rateLimit({ redis, config } as AppDeps, { name: 'login', limit: 2, windowSeconds: 60, keys: () => ['ip:1'] }), (_req, res) => {
      res.json({ ok: true });
    });
    app.use(errorHandler);

    const down = await request(app).post('/login');
    expect(down.status).toBe(503);
    expect(down.body.message).toMatch(/temporarily unavailable/);

    const server = await startRedisServer(port);
    cleanups.push(() => server.stop());
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(app).post('/login')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
