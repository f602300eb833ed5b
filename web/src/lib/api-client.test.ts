import { describe, expect, it, vi } from 'vitest';
import { api, ApiError, nextLink } from './api-client';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client', () => {
  it('sends the session cookie and a JSON body, and returns the parsed reply', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ _id: 'o1' }, 201));
    vi.stubGlobal('fetch', fetchMock);

    await expect(api.post('/api/orders', { totalPrice: 10 })).resolves.toEqual({ _id: 'o1' });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/orders');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('{"totalPrice":10}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it("throws the server's message with the HTTP status", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ message: 'Product not found' }, 404)));
    const error = await caught(api.get('/api/products/x'));
    expect(error.status).toBe(404);
    expect(error.message).toBe('Product not found');
    expect(error.data).toEqual({ message: 'Product not found' });
  });

  it('falls back to the status text when the server sent no message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    const error = await caught(api.get('/api/products'));
    expect(error.status).toBe(502);
    expect(error.message).toBe('Bad Gateway');
  });

  it('reports a network failure as FETCH_ERROR with the error text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await caught(api.get('/api/crypto/eth-price'));
    expect(error.status).toBe('FETCH_ERROR');
    expect(error.isHttpError).toBe(false);
    expect(error.message).toBe('Failed to fetch');
  });

  it('reports a successful reply that is not JSON as PARSING_ERROR', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html></html>', { status: 200 })));
    const error = await caught(api.get('/api/products'));
    expect(error.status).toBe('PARSING_ERROR');
  });

  it('sends FormData untouched for uploads', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ message: 'Image uploaded', image: '/uploads/a.png' }));
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('image', new Blob(['x']), 'a.png');

    await api.post('/api/uploads', form);
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('reads a page and the next page named in its Link header', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('[1,2]', { status: 200, headers: { Link: '</api/orders?cursor=x%2Dy&limit=2>; rel="next"' } })));
    await expect(api.page('/api/orders', { query: { limit: 2 } })).resolves.toEqual({ items: [1, 2], next: '/api/orders?cursor=x%2Dy&limit=2' });
    expect(nextLink(null)).toBeNull();
    expect(nextLink('</a>; rel="prev", </b>; rel=next')).toBe('/b');
    expect(nextLink('</a>; rel="prev"')).toBeNull();
  });
});
