import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerProblem } from '@shop/core/contract/operation-checks';
import { errorStatuses, OPERATIONS, type Operation } from '@shop/core/contract/operations';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../testing/api-test-kit.ts';
import { listRoutes } from '../route-table.ts';

/**
 * The published document against the router: every /api route the app answers is an
 * operation of the document (and no operation is a route that does not exist), and each
 * operation's declared access is what the router enforces.
 */
let kit: ApiTestKit;
let user: TestUser;

beforeAll(async () => {
  kit = await createApiTestKit();
  user = await kit.createUser();
});
afterAll(async () => {
  await kit?.close();
});

/** Routes under /api that are not operations of the api, and why. */
const NOT_API: Record<string, string> = {
  'GET /api/docs': 'the HTML reference page of this document',
  'GET /api/docs/assets/:file': "the reference page's script and style sheet",
};

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const documented = new Set(OPERATIONS.map(key));

describe('the OpenAPI document covers the router', () => {
  it('has an operation for every /api route the app answers', () => {
    // Outside /api: the queue dashboard (/admin/queues, bull-board's own app), /metrics
    // (Prometheus text), /uploads (static files) and the web app's pages.
    const routes = listRoutes(kit.app).filter((r) => r.path.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => !documented.has(key(r)) && !(key(r) in NOT_API)).map(key);
    expect(missing, 'routes missing from core/src/contract/operations.ts').toEqual([]);
    const answered = new Set(routes.map(key));
    const stale = OPERATIONS.filter((op) => !answered.has(key(op))).map(key);
    expect(stale, 'operations the router does not answer').toEqual([]);
  });

  it('serves the document, with each operation described, its schemas and its errors', async () => {
    const res = await (await kit.as(null)).get('/api/openapi.json').expect(200);
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>>; webhooks: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toBe('3.1.0');
    for (const op of OPERATIONS) {
      const entry = doc.paths[op.path.replace(/:(\w+)/g, '{$1}')]?.[op.method.toLowerCase()] as
        | { summary: string; description: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }>; security: unknown[] }
        | undefined;
      expect(entry, key(op)).toBeDefined();
      expect(entry!.summary, key(op)).toBeTruthy();
      expect(entry!.description, key(op)).toContain('Who may call it');
      expect(entry!.security, key(op)).toEqual(op.access === 'public' ? [] : [{ session: [] }]);
      for (const answer of op.answers) {
        const content = entry!.responses[answer.status]?.content;
        expect(content, `${key(op)} ${answer.status}`).toBeDefined();
        if (answer.schema) expect(content!['application/json']?.schema, `${key(op)} ${answer.status}`).toBeDefined();
      }
      for (const status of errorStatuses(op)) {
        expect(entry!.responses[status]?.content?.['application/json']?.schema, `${key(op)} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    expect(Object.keys(doc.webhooks)).toEqual(expect.arrayContaining(['order.paid', 'cashout.paid', 'refund.paid']));
    const put = doc.paths['/api/users/{id}']!.put as { description: string };
    expect(put.description).toContain('loadedActiveBalance');
    const order = doc.paths['/api/orders']!.post as { description: string };
    expect(order.description).toContain('MAX_OPEN_ORDERS_PER_USER');
  });

  it('declares the access the router enforces, and every answer of a walk over it as guest, user and admin is one the document declares', async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const guest = await kit.as(null);
    const signedIn = await kit.as(user);
    const asAdmin = await kit.as(admin);
    const call = async (as: typeof guest, op: Operation) => {
      const path = op.path.replace(/:\w+/g, () => randomUUID());
      const res = await as[op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path).send({});
      const problem = answerProblem(op.method, path, res.status, res.body, res.headers['content-type'] ?? '');
      if (problem) problems.push(problem);
      return res;
    };
    const wrong: string[] = [];
    const problems: string[] = [];
    for (const op of OPERATIONS) {
      const asGuest = await call(guest, op);
      if (op.path !== '/api/users/login' && (op.access === 'public') === (asGuest.status === 401)) wrong.push(`${key(op)} as a guest: ${asGuest.status}`);
      // Signing out would end the session the walk goes on with.
      if (op.path === '/api/users/logout') continue;
      const asUser = await call(signedIn, op);
      if (op.access === 'admin' && asUser.status !== 403) wrong.push(`${key(op)} as a user: ${asUser.status}`);
      await call(asAdmin, op);
    }
    expect(wrong).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the reference page', () => {
  it('loads only its own files, under a CSP without inline scripts or eval', async () => {
    const guest = await kit.as(null);
    const page = await guest.get('/api/docs').expect(200);
    expect(page.type).toBe('text/html');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(csp).toContain("connect-src 'self'");
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((a) => a !== 'data:,'); // no favicon request
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith('/api/'), asset).toBe(true);
      await guest.get(asset).expect(200);
    }
    await guest.get('/api/docs/assets/package.json').expect(404);
  });
});
