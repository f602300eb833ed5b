import type { Request, Response } from 'express';
import { UserError } from '@shop/core';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@shop/core/contract/queries';

/**
 * One way every list the api serves is paged: `limit` (default 50, at most 200) and an
 * opaque keyset `cursor`. The body stays the JSON array the screens read; the next page
 * is named in a `Link: <...>; rel="next"` header (RFC 8288), absent on the last page.
 *
 * A keyset page reads `limit + 1` rows from where the last one ended, on an index of
 * (sort key, id): its cost does not depend on how deep the page is or how long the
 * history has grown (an OFFSET would read and throw away every row before it).
 */
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };

/** A sort key as the cursor carries it: a time, or a whole number (a sequence). */
export type KeyValue = Date | bigint;
export type Cursor = { key: KeyValue; id: string };
export type PageQuery = { limit: number; after: Cursor | null };

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function badCursor(): never {
  throw new UserError(400, 'cursor is not one this list gave: start again from the first page');
}

export function encodeCursor(c: Cursor): string {
  const key = c.key instanceof Date ? `t${c.key.getTime()}` : `n${c.key}`;
  return Buffer.from(`${key}.${c.id}`).toString('base64url');
}

/** Times from 1970 to 9999 and non-negative 64-bit sequences: what the columns hold. */
const MAX_TIME = 253_402_300_799_999;
const MAX_SEQ = 2n ** 63n - 1n;

/** The kind of sort key a list's cursor carries: a time (most lists) or a sequence. */
export type KeyKind = 'time' | 'seq';

export function decodeCursor(raw: string, kind: KeyKind = 'time'): Cursor {
  if (raw.length > 200 || !/^[A-Za-z0-9_-]+$/.test(raw)) badCursor();
  const text = Buffer.from(raw, 'base64url').toString();
  const m = /^([tn])(\d{1,20})\.(.+)$/.exec(text);
  // A cursor of another list's kind, or out of the column's range, is not one this list gave.
  if (!m || !ID.test(m[3]!) || m[1] !== (kind === 'time' ? 't' : 'n')) badCursor();
  if (kind === 'time') {
    const ms = Number(m[2]);
    if (!(ms <= MAX_TIME)) badCursor();
    return { key: new Date(ms), id: m[3]! };
  }
  const seq = BigInt(m[2]!);
  if (seq > MAX_SEQ) badCursor();
  return { key: seq, id: m[3]! };
}

function one(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UserError(400, `${name} must be given once`);
  return value;
}

/** `limit` and `cursor` from the query string; anything else there is the list's own. */
export function pageQuery(req: Request, kind: KeyKind = 'time'): PageQuery {
  const rawLimit = one(req.query.limit, 'limit');
  let limit = DEFAULT_PAGE_SIZE;
  if (rawLimit !== undefined) {
    if (!/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_PAGE_SIZE) {
      throw new UserError(400, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
    }
    limit = Number(rawLimit);
  }
  const rawCursor = one(req.query.cursor, 'cursor');
  return { limit, after: rawCursor ? decodeCursor(rawCursor, kind) : null };
}

/**
 * The rows after the cursor in (key, id) order, as a where clause for a Prisma model
 * whose `field` is the sort key and `id` the tie-break. Both columns sort the same way,
 * so one index on (field, id) (or (filter, field, id)) serves it.
 */
export function keysetWhere(field: string, dir: 'asc' | 'desc', after: Cursor | null): Record<string, unknown> {
  if (!after) return {};
  const op = dir === 'desc' ? 'lt' : 'gt';
  // The plain bound (`field <= key`) is what the index scan starts from; the OR alone is
  // only a filter, read over every row before the cursor (a page 100,000 rows deep
  // would read 100,000 index entries).
  return { AND: [{ [field]: { [`${op}e`]: after.key } }, { OR: [{ [field]: { [op]: after.key } }, { [field]: after.key, id: { [op]: after.id } }] }] };
}

export function keysetOrder(field: string, dir: 'asc' | 'desc'): Record<string, 'asc' | 'desc'>[] {
  return [{ [field]: dir }, { id: dir }];
}

/**
 * Sends one page: `rows` were read with `take: limit + 1`; the extra row, when there is
 * one, only says a next page exists. The Link header repeats the request's own query
 * (filters, limit) with the new cursor.
 */
export function sendPage<Row, Json>(
  req: Request,
  res: Response,
  page: PageQuery,
  rows: Row[],
  keyOf: (row: Row) => Cursor,
  toJson: (rows: Row[]) => Json[] | Promise<Json[]>,
): Promise<void> {
  const { shown, link } = pageOf(req, page, rows, keyOf);
  if (link) res.setHeader('Link', link);
  return Promise.resolve(toJson(shown)).then((json) => {
    res.json(json);
  });
}

/**
 * The rows a page shows, and its `Link` header value when a next page exists. With
 * `known`, only those query parameters are carried into the link (a cached page's link
 * must not repeat what one visitor happened to add).
 */
export function pageOf<Row>(req: Pick<Request, 'originalUrl'>, page: PageQuery, rows: Row[], keyOf: (row: Row) => Cursor, known?: string[]): { shown: Row[]; link?: string } {
  const shown = rows.slice(0, page.limit);
  if (rows.length <= page.limit) return { shown };
  const url = new URL(req.originalUrl, 'http://x');
  if (known) for (const name of [...url.searchParams.keys()]) if (!known.includes(name)) url.searchParams.delete(name);
  url.searchParams.set('cursor', encodeCursor(keyOf(shown[shown.length - 1]!)));
  return { shown, link: `<${url.pathname}${url.search}>; rel="next"` };
}

/** A search term from the query string: trimmed, at most 100 characters, or none. */
export function searchTerm(req: Request, name = 'q'): string | undefined {
  const raw = one(req.query[name], name)?.trim();
  if (!raw) return undefined;
  if (raw.length > 100) throw new UserError(400, `${name} must be at most 100 characters`);
  return raw;
}

/** A comma-separated list of allowed values (statuses, upper-cased unless `upper: false`), or none. */
export function enumList<T extends string>(req: Request, name: string, allowed: readonly T[], opts: { upper?: boolean } = {}): T[] | undefined {
  const raw = one(req.query[name], name);
  if (raw === undefined || raw.trim() === '') return undefined;
  const values = raw.split(',').map((s) => (opts.upper === false ? s.trim() : s.trim().toUpperCase()));
  const bad = values.find((v) => !allowed.includes(v as T));
  if (bad !== undefined) throw new UserError(400, `${name} must be one of ${allowed.join(', ')}`);
  return values as T[];
}

/**
 * A date (YYYY-MM-DD, UTC, or an ISO time) from the query string, or none. With `end`, a
 * bare day means the end of that day, so `from=2026-01-01&to=2026-01-31` is all January.
 */
export function dateParam(req: Request, name: string, opts: { end?: boolean } = {}): Date | undefined {
  const raw = one(req.query[name], name)?.trim();
  if (!raw) return undefined;
  const d = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(d.getTime()) || d.getTime() < 0 || d.getTime() > MAX_TIME) {
    throw new UserError(400, `${name} must be a date (YYYY-MM-DD)`);
  }
  return opts.end && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? new Date(d.getTime() + 86_400_000) : d;
}

/** The cursor of a row sorted by (createdAt, id), the order of most lists. */
export const byCreatedAt = (row: { createdAt: Date; id: string }): Cursor => ({ key: row.createdAt, id: row.id });
