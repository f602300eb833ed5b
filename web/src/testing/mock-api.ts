import { vi } from 'vitest';

export type MockRequest = { method: string; path: string; body: unknown };
type Reply = { status: number; body: unknown; headers?: Record<string, string> };
type Handler = unknown | ((request: MockRequest) => unknown);

const REPLY = Symbol('reply');

/** A reply with a status other than 200: `reply(404, { message: 'Product not found' })`. */
export function reply(status: number, body: unknown, headers?: Record<string, string>): Reply & { [REPLY]: true } {
  return { status, body, ...(headers ? { headers } : {}), [REPLY]: true };
}

function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && REPLY in value;
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body === 'string') return JSON.parse(body) as unknown;
  return body ?? undefined;
}

/**
 * Stubs `fetch` (the app's only boundary to the api) with handlers keyed by
 * 'METHOD /path'. A handler is the JSON to answer with, a `reply(...)`, or a function of
 * the request returning either (or a promise of either). Unknown routes answer 404.
 */
export function mockApi(routes: Record<string, Handler>) {
  const requests: MockRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const path = String(input);
    const request = { method, path, body: parseBody(init.body) };
    requests.push(request);
    const key = `${method} ${path.split('?')[0]}`;
    if (!(key in routes)) {
      return new Response(JSON.stringify({ message: `No mock for ${key}` }), { status: 404 });
    }
    const handler = routes[key];
    const result = typeof handler === 'function' ? await (handler as (r: MockRequest) => unknown)(request) : handler;
    const { status, body, headers } = isReply(result) ? result : { status: 200, body: result, headers: undefined };
    // No body at all (a 204 may carry none).
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    requests,
    /** The requests sent to 'METHOD /path'. */
    sent: (key: string) => requests.filter((r) => `${r.method} ${r.path.split('?')[0]}` === key),
  };
}

/**
 * A list handler that filters by the `status` query parameter (comma-separated) as the
 * api does: `'GET /api/orders/mine': byStatus(orders)`.
 */
export function byStatus<T extends { status: string }>(rows: T[] | (() => T[])) {
  return (request: MockRequest): T[] => {
    const status = new URL(request.path, 'http://x').searchParams.get('status');
    const all = typeof rows === 'function' ? rows() : rows;
    return status ? all.filter((r) => status.split(',').includes(r.status)) : all;
  };
}
