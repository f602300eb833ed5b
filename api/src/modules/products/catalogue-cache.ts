import { createHash } from 'node:crypto';

/**
 * A response body ready to send: the JSON as UTF-8 bytes, and its ETag; its gzip form is
 * made once, the first time a browser that accepts it asks (then served from here).
 */
export type CachedJson = { body: Buffer; etag: string; gzip?: Buffer; br?: Buffer; link?: string; productIds?: ReadonlySet<string> };

/**
 * What a load returns when it is more than a body: a page's JSON, its `Link` header, and
 * the packages it shows (an order for one of them drops the page, not the whole cache).
 */
export type Loaded = { data: unknown; link?: string; productIds: readonly string[] };

type Entry = { at: number; generation: number; value: Promise<CachedJson | null>; settled?: CachedJson | null };

/** Beyond this many cached product ids the cache starts over (ids come from the URL). */
const MAX_ENTRIES = 1_000;

/**
 * The public catalogue (the product list and each product) as serialised JSON, kept by
 * this api process for `ttlMs` after it was read. Concurrent misses share one database
 * read. Writes made through this process show at once here: product edits call
 * `invalidate()`; orders reserving or releasing stock call `invalidateProducts(ids)`,
 * which drops only the entries showing those packages, so order traffic on one package
 * does not make every other page of the catalogue be read again. Changes made elsewhere (another
 * api instance, the worker releasing stock of expired orders) show within `ttlMs`. The
 * cache only serves what the catalogue pages display: prices and stock that matter are
 * read again from the database inside the order transaction.
 */
export class CatalogueCache {
  private readonly entries = new Map<string, Entry>();
  /** Cursors of next pages this cache's own pages handed out (the only cursors it caches). */
  private readonly issued = new Set<string>();
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
    return this.getLoaded(key, () => load().then((data) => (data === null ? null : { data, productIds: [] })));
  }

  /** As `get`, for a load that also names its Link header and the packages it shows. */
  getLoaded(key: string, load: () => Promise<Loaded | null>): Promise<CachedJson | null> {
    const now = this.now();
    const hit = this.fresh(key, now);
    if (hit) return hit.value;

    return this.keep(key, now, load().then((loaded) => (loaded === null ? null : serialiseLoaded(loaded))));
  }

  /**
   * As `get`, for a body that is not JSON: a page the api draws from the catalogue
   * (web-app.ts), kept and dropped exactly as the reads it shows are.
   */
  getBody(key: string, load: () => Promise<{ body: Buffer; productIds: readonly string[] } | null>): Promise<CachedJson | null> {
    const now = this.now();
    const hit = this.fresh(key, now);
    if (hit) return hit.value;
    return this.keep(key, now, load().then((loaded) => (loaded === null ? null : { ...bodyOf(loaded.body), productIds: new Set(loaded.productIds) })));
  }

  private keep(key: string, now: number, value: Promise<CachedJson | null>): Promise<CachedJson | null> {
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

  /**
   * Forgets what shows these packages: their own entries, the pages listing them, and
   * every read still in flight (it may have started before the write).
   */
  invalidateProducts(ids: Iterable<string>): void {
    const changed = new Set(ids);
    for (const [key, entry] of this.entries) {
      const shown = entry.settled?.productIds;
      if (changed.has(key) || entry.settled === undefined || (shown && [...changed].some((id) => shown.has(id)))) this.entries.delete(key);
    }
  }

  /** Forgets everything, including reads still in flight that started before the write. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.issued.clear();
  }

  /** Records a next-page cursor a cached page handed out. */
  remember(cursor: string): void {
    if (this.issued.size >= MAX_ENTRIES) this.issued.clear();
    this.issued.add(cursor);
  }

  remembers(cursor: string): boolean {
    return this.issued.has(cursor);
  }
}

export function serialiseLoaded(loaded: Loaded): CachedJson {
  return { ...serialise(loaded.data), ...(loaded.link ? { link: loaded.link } : {}), productIds: new Set(loaded.productIds) };
}

function serialise(data: unknown): CachedJson {
  return bodyOf(Buffer.from(JSON.stringify(data), 'utf8'));
}

function bodyOf(body: Buffer): CachedJson {
  // The same weak ETag Express would compute for this body, computed once per read.
  const hash = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return { body, etag: `W/"${body.length.toString(16)}-${hash}"` };
}
