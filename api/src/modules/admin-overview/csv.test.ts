import { describe, expect, it } from 'vitest';
import express from 'express';
import request from 'supertest';
import { csvField, streamCsv } from './csv.ts';

/** An app whose one download reads `pages` pages of two rows, the last of them failing when `failAt` says so. */
function appWith(pages: number, failAt?: number) {
  const app = express();
  app.get('/file.csv', async (req, res) => {
    let page = 0;
    await streamCsv<{ n: number }>(req, res, {
      filename: 'file.csv',
      header: ['n', 'label'],
      pageSize: 2,
      nextPage: async (after) => {
        page++;
        if (page === failAt) throw new Error('the database went away');
        if (page > pages) return [];
        const start = after ? after.n + 1 : 1;
        return [{ n: start }, { n: start + 1 }];
      },
      toLines: (rows) => rows.map((r) => [r.n, `row ${r.n}, "quoted"`]),
    });
  });
  app.use(((_err, _req, res, _next) => {
    res.status(500).json({ message: 'Internal server error' });
  }) as express.ErrorRequestHandler);
  return app;
}

describe('csvField', () => {
  it('writes fields the RFC 4180 way, and names a cell that starts like a formula as text', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('Gold, "Premium"\nPackage')).toBe('"Gold, ""Premium""\nPackage"');
    expect(csvField({ text: '=1+1' })).toBe("'=1+1");
    expect(csvField({ text: '-2,5' })).toBe(`"'-2,5"`);
    expect(csvField('-2.50')).toBe('-2.50');
    expect(csvField(null)).toBe('');
  });
});

describe('streamCsv', () => {
  it('writes the header and every page, a keyset page after another, as an attachment', async () => {
    const res = await request(appWith(3)).get('/file.csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="file.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toBe(['n,label', ...[1, 2, 3, 4, 5, 6].map((n) => `${n},"row ${n}, ""quoted"""`), ''].join('\r\n'));
  });

  it('answers a clean error when the first page cannot be read', async () => {
    const res = await request(appWith(3, 1)).get('/file.csv');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Internal server error' });
  });

  it('breaks the download, rather than end a file that looks complete, when a later page fails', async () => {
    const failed = await request(appWith(3, 2))
      .get('/file.csv')
      .then(
        () => null,
        (err: Error) => err,
      );
    expect(failed?.message).toMatch(/aborted|socket hang up|ECONNRESET/i);
  });
});
