// A lean client for latency figures: sequential GETs timed in a process of its own that
// loads nothing else. Timed from the benchmark's own process (its heap holds the Prisma
// client, viem and the rest of the shop's code), a request caught by that process's
// garbage collection took 15-25 ms longer, every few hundred milliseconds: a stall of the
// measuring client, not of the server, which set the two-year rows' p99s.
//
// Message in:  { type: 'time', url, headers, samples }
// Message out: { type: 'timed', times (ms, in order), bytes (the largest body), status (the first not 200, or 200) }
type TimeRequest = { type: 'time'; url: string; headers: Record<string, string>; samples: number };

async function time(req: TimeRequest): Promise<{ times: number[]; bytes: number; status: number }> {
  const times: number[] = [];
  let bytes = 0;
  let status = 200;
  for (let i = 0; i < req.samples; i++) {
    const started = performance.now();
    const res = await fetch(req.url, { headers: req.headers });
    const body = await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200 && status === 200) status = res.status;
    bytes = Math.max(bytes, body.byteLength);
  }
  return { times, bytes, status };
}

process.on('message', (msg: TimeRequest) => {
  if (msg?.type !== 'time') return;
  time(msg).then(
    (result) => process.send?.({ type: 'timed', ...result }),
    (err: unknown) => process.send?.({ type: 'timed', times: [], bytes: 0, status: 0, error: String(err) }),
  );
});
process.once('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
