import { createHash } from 'node:crypto';

/**
 * A response body ready to send: the JSON as UTF-8 bytes, and its ETag; its gzip form is
 * made once, the first time a browser that accepts it asks (then served from here).
 */
export type CachedJson = { body: Buffer; etag: string; gzip?: Buffer };

type Entry = { at: number; generation: number; value: Promise<CachedJson | null>; settled?: CachedJson | null };

/** Beyond this many cached product ids the cache starts over (ids come from the URL). */
const MAX_ENTRIES = 1_000;

/**
 * The public catalogue (the product list and each product) as serialised JSON, kept by
 * this api process for `ttlMs` after it was read. Concurrent misses share one database
 * read. Writes made through this process (product edits, orders reserving or releasing
 * stock) call `invalidate()`, so they show at once here; changes made elsewhere (another
 * api instance, the worker releasing stock of expired orders) show within `ttlMs`. The
 * cache only serves what the catalogue pages display: prices and stock that matter are
 * read again from the database inside the order transaction.
 */
export class CatalogueCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * A fresh value already read (null: known not to exist), or undefined when `get` has
   * to read it: lets a handler answer a hit without waiting a turn of the event loop.
   */
  peek(key: string): CachedJson | null | undefined {
    const hit = this.fresh(key, this.now());
    return hit?.settled;
  }

  private fresh(key: string, now: number): Entry | undefined {
    const hit = this.entries.get(key);
    return hit && hit.generation === this.generation && now - hit.at < this.ttlMs ? hit : undefined;
  }

  /** The cached value under `key`, or `load()`'s result (null: not found) serialised. */
  get(key: string, load: () => Promise<unknown>): Promise<CachedJson | null> {
    const now = this.now();
    const hit = this.fresh(key, now);
    if (hit) return hit.value;

    const value = load().then((data) => (data === null ? null : serialise(data)));
    if (this.ttlMs <= 0) return value;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const entry: Entry = { at: now, generation: this.generation, value };
    this.entries.set(key, entry);
    value.then(
      (settled) => {
        entry.settled = settled;
      },
      // A failed read is not remembered: the next request tries the database again.
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  /** Forgets everything, including reads still in flight that started before the write. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

function serialise(data: unknown): CachedJson {
  const body = Buffer.from(JSON.stringify(data), 'utf8');
  // The same weak ETag Express would compute for this body, computed once per read.
  const hash = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return { body, etag: `W/"${body.length.toString(16)}-${hash}"` };
}
