/**
 * Plain JSON-RPC over HTTP to anvil: single calls and batches, every call bounded in
 * time. The benchmarks drive the chain with it (no client library in the way).
 */
export type RpcCall = { method: string; params?: unknown[] };

type RpcResponse = { id: number; result?: unknown; error?: { code: number; message: string } };

export function jsonRpc(url: string, timeoutMs = 30_000) {
  let nextId = 1;
  async function post(body: unknown): Promise<unknown> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
    return res.json();
  }
  return {
    async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
      const res = (await post({ jsonrpc: '2.0', id: nextId++, method, params })) as RpcResponse;
      if (res.error) throw new Error(`${method}: ${res.error.message}`);
      return res.result as T;
    },
    /** Results in call order; throws on the first error. */
    async batch<T = unknown>(calls: RpcCall[]): Promise<T[]> {
      const first = nextId;
      nextId += calls.length;
      const res = (await post(calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params ?? [] })))) as RpcResponse[];
      const byId = new Map(res.map((r) => [r.id, r]));
      return calls.map((c, i) => {
        const r = byId.get(first + i);
        if (!r) throw new Error(`${c.method}: no answer in the batch`);
        if (r.error) throw new Error(`${c.method}: ${r.error.message}`);
        return r.result as T;
      });
    },
  };
}

export type JsonRpc = ReturnType<typeof jsonRpc>;
