import { gzipSync } from 'node:zlib';
import { Router, type Express, type Response } from 'express';
import { publishProductBody, updateProductBody, type ProductJson } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin, requireStepUp } from '../../middleware/auth.ts';
import { audited, signedInActor } from '../../middleware/audit.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import { notFound } from '@shop/core';
import { serialiseLoaded, type CachedJson, type CatalogueCache, type Loaded } from './catalogue-cache.ts';
import { byCreatedAt, DEFAULT_PAGE_SIZE, pageOf, pageQuery, searchTerm, sendPage, type PageQuery } from '../../middleware/paging.ts';
import * as products from './service.ts';

/** Bodies this small are sent as they are (compressing them saves less than it costs). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Sends cached JSON, gzipped once per cache entry for a browser that accepts it (the
 * compression middleware then leaves it alone). A plain GET without If-None-Match (most
 * of the traffic) is written as it is: its ETag, length and type are known, so Express's
 * `send` (type sniffing, ETag and freshness checks) has nothing to add. Otherwise `send`
 * answers, 304 to a matching If-None-Match.
 */
function sendCached(res: Response, cached: CachedJson): void {
  const req = res.req;
  // Lower-case names, as securityHeaders sets its own (security-headers.ts says why).
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('etag', cached.etag);
  if (cached.link) res.setHeader('link', cached.link);
  // The catalogue answers first after the request log, the metrics and the security
  // headers, none of which vary: this Vary is the only one.
  res.setHeader('vary', 'Accept-Encoding');
  let body = cached.body;
  // No Accept-Encoding (load generators, scripts): no negotiation to run.
  if (body.length >= COMPRESS_FROM_BYTES && req.headers['accept-encoding'] && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    body = cached.gzip ??= gzipSync(cached.body);
    res.setHeader('content-encoding', 'gzip');
  }
  if (req.method !== 'GET' || req.headers['if-none-match'] !== undefined) {
    res.send(body);
    return;
  }
  res.setHeader('content-length', body.length);
  res.end(body);
}

/** The catalogue's cached reads, for its routes and for the pages the api draws (web-app.ts). */
export type CatalogueReads = {
  /** The first page of the catalogue at the default page size, as GET /api/products answers it. */
  firstPage(): Promise<CachedJson>;
  /** One package on sale, as GET /api/products/:id answers it; null: none with this id. */
  product(id: string): Promise<CachedJson | null>;
  /** A page of the list (cached or not, as the route decides). */
  page(originalUrl: string, q: string | undefined, page: PageQuery, cursor: string): Promise<CachedJson>;
  /** `page`'s answer when the cache holds it (undefined: call `page`), without waiting a turn. */
  cachedPage(q: string | undefined, page: PageQuery, cursor: string): CachedJson | undefined;
  /** `product`'s answer when the cache holds it (null: known not on sale; undefined: call `product`). */
  cachedProduct(id: string): CachedJson | null | undefined;
};

export function catalogueReads({ db }: AppDeps, cache: CatalogueCache): CatalogueReads {
  const loadPage = (originalUrl: string, q: string | undefined, page: PageQuery) => async (): Promise<Loaded> => {
    const rows = await products.productsPage(db, q, page);
    // The link carries only the list's own parameters: a cached page is sent to everyone.
    const { shown, link } = pageOf({ originalUrl }, page, rows, byCreatedAt, ['limit', 'q']);
    const next = link && /[?&]cursor=([^&>]+)/.exec(link)?.[1];
    if (next) cache.remember(next);
    return { data: shown.map(products.toProductJson), ...(link ? { link } : {}), productIds: shown.map((p) => p.id) };
  };
  // Pages of the catalogue are cached by limit and cursor, the first page and the pages a
  // cached page linked to; searches (any text a visitor types) and cursors nobody was
  // given go to the database, so they cannot push the pages out of the cache.
  const cacheKey = (q: string | undefined, page: PageQuery, cursor: string) => (q || (cursor && !cache.remembers(cursor)) ? null : `list:${page.limit}:${cursor}`);
  const listPage = async (originalUrl: string, q: string | undefined, page: PageQuery, cursor: string): Promise<CachedJson> => {
    const load = loadPage(originalUrl, q, page);
    const key = cacheKey(q, page, cursor);
    if (key === null) return serialiseLoaded(await load());
    const hit = cache.peek(key);
    if (hit) return hit;
    return (await cache.getLoaded(key, load)) as CachedJson;
  };
  return {
    page: listPage,
    firstPage: () => listPage('/api/products', undefined, { limit: DEFAULT_PAGE_SIZE, after: null }, ''),
    product: (id) => {
      const hit = cache.peek(id);
      return hit !== undefined ? Promise.resolve(hit) : cache.get(id, () => products.findProduct(db, id));
    },
    cachedPage: (q, page, cursor) => {
      const key = cacheKey(q, page, cursor);
      return (key !== null && cache.peek(key)) || undefined;
    },
    cachedProduct: (id) => cache.peek(id),
  };
}

/**
 * The public reads, registered on the app itself ahead of body parsing, cookies and the
 * session, which they do not need; served from the catalogue cache, a hit answered at
 * once (no promise to wait for).
 */
export function catalogueRoutes(app: Express, reads: CatalogueReads): void {
  const answer = (res: Response, cached: CachedJson | null) => {
    if (!cached) throw notFound(products.NOT_FOUND);
    sendCached(res, cached);
  };
  app.get('/api/products', (req, res) => {
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : '';
    const q = searchTerm(req);
    const page = pageQuery(req);
    const hit = reads.cachedPage(q, page, cursor);
    if (hit) return answer(res, hit);
    return reads.page(req.originalUrl, q, page, cursor).then((cached) => answer(res, cached));
  });
  app.get('/api/products/:id', (req, res) => {
    const id = parseId(req.params.id, 'Product');
    const hit = reads.cachedProduct(id);
    if (hit !== undefined) return answer(res, hit);
    return reads.product(id).then((cached) => answer(res, cached));
  });
}

/**
 * The admin's reads of the catalogue (drafts too), uncached, and putting a package on
 * sale or taking it off (/api/admin/products): the public reads above show packages on sale only.
 */
export function adminProductRoutes({ db, config }: AppDeps, cache: CatalogueCache): Router {
  const router = Router();
  router.use(requireAdmin);
  router.get('/', async (req, res) => {
    const page = pageQuery(req);
    const rows = await products.productsPage(db, searchTerm(req), page, { drafts: true });
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => shown.map((p) => products.toAdminProductJson(config, p)));
  });
  router.get('/:id', async (req, res) => {
    const product = await products.findProduct(db, parseId(req.params.id, 'Product'), { drafts: true });
    if (!product) throw notFound(products.NOT_FOUND);
    res.json(product);
  });
  router.post('/:id/publish', requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Product');
    const { published, approvalReason } = parseBody(publishProductBody, req.body);
    const { before, after } = await products.setPublished(db, config, signedInActor(req, approvalReason), id, published);
    cache.invalidate();
    // 202: a package that pays more than it costs goes on sale once a second admin approves (the request is audited in core).
    if (after.pendingApproval) return void res.status(202).json(after);
    await audited(req, db, {
      action: published ? 'product.publish' : 'product.unpublish',
      subject: { type: 'product', id },
      before: { publishedAt: before.publishedAt },
      after: { name: after.name, publishedAt: after.publishedAt },
    });
    res.json(after);
  });
  return router;
}

/** What the audit log keeps of a package: what the storefront sells it as. */
const auditedProduct = (p: ProductJson) => ({ name: p.name, price: p.price.toFixed(2), countInStock: p.countInStock, dailyCredit: p.dailyCredit.toFixed(2), durationDays: p.durationDays });

/** The admin's writes; each one empties the catalogue cache. */
export function productRoutes({ db, config }: AppDeps, cache: CatalogueCache): Router {
  const router = Router();
  // Invalidated after the write commits: reads that started earlier are not kept.
  router.post('/', requireAdmin, requireStepUp, async (req, res) => {
    const created = await products.createSampleProduct(db);
    cache.invalidate();
    await audited(req, db, { action: 'product.create', subject: { type: 'product', id: created._id }, after: auditedProduct(created) });
    res.status(201).json(created);
  });

  router.put('/:id', requireAdmin, requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Product');
    const input = parseBody(updateProductBody, req.body);
    const before = await products.findProduct(db, id, { drafts: true });
    const updated = await products.updateProduct(db, config, signedInActor(req, input.approvalReason), id, input);
    cache.invalidate();
    await audited(req, db, { action: 'product.update', subject: { type: 'product', id }, before: before && auditedProduct(before), after: auditedProduct(updated) });
    // 202: saved, but the new price, credit, term or stock wait for a second admin.
    res.status(updated.pendingApproval ? 202 : 200).json(updated);
  });

  router.delete('/:id/delete', requireAdmin, requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'Product');
    await products.deleteProduct(db, id);
    cache.invalidate();
    await audited(req, db, { action: 'product.delete', subject: { type: 'product', id } });
    res.json({ message: 'Product deleted' });
  });

  return router;
}
