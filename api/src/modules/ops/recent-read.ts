/**
 * A read kept and answered at once, read again behind the caller once it is `maxAgeMs`
 * old (one read at a time): for a gauge whose count walks rows an attacker can add
 * (open transfers), so a scrape's time does not grow with them. The first call waits for
 * the first read; a failed read behind a caller goes to `onError` and the last value stays.
 */
export function recentRead<T>(read: () => Promise<T>, opts: { maxAgeMs: number; onError: (err: unknown) => void; now?: () => number }): () => Promise<T> {
  const now = opts.now ?? (() => performance.now());
  let last: { at: number; value: T } | undefined;
  let running: Promise<T> | undefined;
  const readAgain = (): Promise<T> =>
    (running ??= read()
      .then((value) => {
        last = { at: now(), value };
        return value;
      })
      .finally(() => {
        running = undefined;
      }));
  return async () => {
    if (!last) return readAgain();
    if (now() - last.at >= opts.maxAgeMs) readAgain().catch(opts.onError);
    return last.value;
  };
}
