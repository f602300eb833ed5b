import { describe, expect, it } from 'vitest';
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { loadConfig } from '@shop/core';
import { appHelmet, recordHeaders, securityHeaders } from './security-headers.ts';

/** The headers an app with only `middleware` in front of a JSON answer sends. */
async function headersWith(middleware: RequestHandler): Promise<Record<string, unknown>> {
  const app = express();
  app.use(middleware);
  app.get('/', (_req, res) => void res.json({ ok: true }));
  const { headers } = await request(app).get('/');
  // Set per response by Node and Express, not by the middleware.
  const { date: _date, etag: _etag, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

describe('security headers', () => {
  const test = loadConfig({ NODE_ENV: 'test', QUEUE_PREFIX: 'shtest' });
  it.each([
    // Only what the headers read differs: HSTS and upgrade-insecure-requests in production.
    ['production', { ...test, isProduction: true }],
    ['test', test],
  ])('replays exactly what helmet sends, computed once (%s settings)', async (_name, config) => {
    const replayed = await headersWith(securityHeaders(config));
    expect(replayed).toEqual(await headersWith(appHelmet(config)));
    expect(replayed['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(replayed['x-frame-options']).toBe('DENY');
  });

  it('refuses a middleware that does not finish at once', () => {
    expect(() => recordHeaders((_req, _res, next) => void setTimeout(next, 0))).toThrow(/synchronously/);
  });
});
