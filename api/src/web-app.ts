import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import type { Logger } from '@shop/core';
import {
  MODULES_META,
  PAGE_STATE_ID,
  ROUTE_PRELOADS_FILE,
  SERVER_ENTRY_FILE,
  type Locale,
  type PageData,
  type ProductJson,
  type RenderPage,
  type ScreenPreloads,
  type ShopConfigJson,
} from '@shop/core/contract';
import { SESSION_COOKIE } from './middleware/auth.ts';
import { requestCurrency, requestLocale } from './middleware/locale.ts';
import { parseId } from './middleware/validate.ts';
import type { CachedJson, CatalogueCache } from './modules/products/catalogue-cache.ts';
import type { CatalogueReads } from './modules/products/routes.ts';

/** What the api's pages are drawn from: the catalogue's cached reads and the shop's config. */
export type WebAppDeps = { catalogue: CatalogueCache; reads: CatalogueReads; shopConfig: ShopConfigJson; logger: Logger };

/**
 * The built web app (web/dist), served by the api:
 * - its files precompressed at build time (brotli, gzip), sent with their
 *   Content-Encoding to a browser that accepts it, and `Vary: Accept-Encoding`; hashed
 *   assets (`assets/`) cached for a year as immutable, since a change gets a new name;
 *   the rest (images, the favicon, robots.txt) for an hour;
 * - every other GET path (the app's client-side routes) answered with index.html,
 *   revalidated on every visit so a new release is seen at once, and naming the chunks
 *   of the screen at that path (`<link rel="modulepreload">`, from the build's
 *   route-preloads.json) so the browser fetches them together with the app;
 * - a form of such a page sent before the app ran sent back to the page (303);
 * - the public screens pages.ts marks `drawnOnServer` (home, a package, cart, sign in,
 *   register) drawn here by the build's server bundle (web/src/entry-server.tsx) with
 *   the catalogue's reads in the page, and kept in the catalogue cache beside the reads
 *   they show: dropped when those are (a package edited, an order for a package shown).
 */
export function webApp(webDist: string, deps: WebAppDeps): Router {
  const router = express.Router();
  const files = webFiles(webDist);
  router.use(files);
  const appPath = /^\/(?!api\/|uploads\/|admin\/queues).*/;
  router.get(appPath, appPage(webDist, files, deps));
  // A drawn page's form sent before the app ran (sign in, register: `method="post"`, so a
  // password never goes into an address): its fields are not read, and the visitor gets
  // the page again, with the app running, rather than an error.
  // Never to another site: '//host' or '/\\host' would be read as one.
  router.post(appPath, (req, res) => res.redirect(303, /^\/(?![/\\])/.test(req.originalUrl) ? req.originalUrl : '/'));
  return router;
}

function webFiles(webDist: string): RequestHandler {
  return expressStaticGzip(webDist, {
    enableBrotli: true,
    orderPreference: ['br', 'gz'],
    index: false,
    serveStatic: {
      index: false,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const relative = path.relative(webDist, filePath);
        const cacheControl = relative.startsWith(`assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : /^index\.html(\.(br|gz))?$/.test(relative)
            ? 'no-cache'
            : 'public, max-age=3600';
        res.setHeader('Cache-Control', cacheControl);
      },
    },
  });
}

type Screen = ScreenPreloads & { segments: string[]; fixed: number };
/**
 * What a page names; `shared` when it is the same for every visitor of the screen (no id
 * in it); `drawn` when the server draws it (then `data` are the reads it draws from).
 */
type Preloads = { files: readonly string[]; data: readonly string[]; shared: boolean; private: boolean; drawn?: boolean };
type Page = { etag: string; bodies: Record<'br' | 'gzip' | 'identity', Buffer> };

/**
 * index.html for a client-side route, naming the screen's chunks and the api reads it
 * starts with. A page that is the same for every visitor of a screen is built and
 * compressed once, and again only when a new build replaces index.html or the list; one
 * that names an id is compressed per request, faster. A build without a readable
 * route-preloads.json gets index.html as it is.
 */
function appPage(webDist: string, files: RequestHandler, deps: WebAppDeps): RequestHandler {
  const indexFile = path.join(webDist, 'index.html');
  const listFile = path.join(webDist, ROUTE_PRELOADS_FILE);
  const serverFile = path.join(webDist, SERVER_ENTRY_FILE);
  let built = '';
  let html = '';
  let screens: Screen[] = [];
  let renderer: Promise<RenderPage | null> = Promise.resolve(null);
  const pages = new Map<string, Page>();

  /** The build as it is on disk, reread when a file of it changes (a rebuild in place). */
  const load = (): boolean => {
    const [index, list, server] = [indexFile, listFile, serverFile].map((file) => statSync(file, { throwIfNoEntry: false }));
    if (!index) return false;
    const stamp = [index, list, server].map((stat) => (stat ? `${stat.mtimeMs}:${stat.size}` : '-')).join(' ');
    if (stamp === built) return true;
    const read = readFileSync(indexFile, 'utf8');
    // A file caught half written by a build: send it this time, keep nothing.
    if (!read.includes('</head>')) {
      html = read;
      screens = [];
      built = '';
      pages.clear();
      return true;
    }
    html = read;
    screens = readScreens(listFile);
    pages.clear();
    built = stamp;
    renderer = server ? loadRenderer(serverFile, stamp, deps.logger) : Promise.resolve(null);
    return true;
  };

  const build = ({ files: chunks, data }: Preloads, locale: Locale, quality: number): Page => {
    const links = [
      ...chunks.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`),
      // The app's api client sends credentials ('include'): the preload must too, or the
      // browser fetches the data a second time.
      ...data.map((url) => `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${url}">`),
    ].join('');
    // The app loads the words of the language the page names (web/src/main.tsx).
    const page = withLang(html, locale);
    const identity = Buffer.from(links ? page.replace('</head>', () => `${links}</head>`) : page);
    return {
      etag: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
      bodies: {
        identity,
        br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }),
        gzip: gzipSync(identity, { level: quality === 11 ? 9 : 6 }),
      },
    };
  };

  const pageFor = (preloads: Preloads, locale: Locale): Page => {
    if (!preloads.shared) return build(preloads, locale, 5);
    const key = [locale, ...preloads.files, ...preloads.data].join(' ');
    let page = pages.get(key);
    if (!page) {
      page = build(preloads, locale, 11);
      pages.set(key, page);
    }
    return page;
  };

  /**
   * The page drawn on the server, from the catalogue cache (drawn once per change of what
   * it shows); null when it cannot be drawn here: then the app draws it in the browser.
   */
  const drawnPage = async (req: Request, preloads: Preloads): Promise<CachedJson | null> => {
    const render = await renderer;
    if (!render) return null;
    const locale = requestLocale(req);
    const currency = requestCurrency(req, deps.shopConfig.displayCurrencies);
    // One page per language and display currency: each drawn once, kept beside its reads.
    const key = `page:${built}:${locale}:${currency}:${req.path}`;
    const template = html;
    const drawn = await deps.catalogue.getBody(key, async () => {
      const read = await pageData(deps, preloads.data);
      if (!read) return null;
      const page = await render({ url: req.originalUrl, locale, currency, data: read.data });
      const body = page && drawnHtml(template, preloads.files, page, locale);
      return body ? { body: Buffer.from(body), productIds: read.shown } : null;
    });
    return drawn;
  };

  // The build read and its server bundle imported now, not by the first visitor.
  load();

  return (req, res, next) => {
    if (!load()) {
      req.url = '/index.html';
      files(req, res, next);
      return;
    }
    const preloads = preloadsFor(screens, req);
    // A page with a query (a search, a referral link) is drawn in the browser: each
    // one would be a page of its own to draw and keep.
    if (preloads.drawn && !req.originalUrl.includes('?')) {
      drawnPage(req, preloads).then(
        (drawn) => (drawn ? sendDrawn(req, res, drawn) : sendShell()),
        (error: unknown) => {
          deps.logger.warn({ err: error, path: req.path }, 'drawing a page on the server failed; sending the app to draw it');
          sendShell();
        },
      );
      return;
    }
    sendShell();

    function sendShell() {
      const page = pageFor(preloads, requestLocale(req));
      const encoding = (req.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as keyof Page['bodies'];
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      // A signed-in screen's page depends on the session cookie: no shared cache keeps it.
      res.setHeader('Cache-Control', preloads.private ? 'private, no-cache' : 'no-cache');
      res.vary('Accept-Encoding').vary('Accept-Language').vary('Cookie');
      if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
      res.setHeader('ETag', `"${page.etag}-${encoding}"`);
      // res.send answers 304 to a request whose If-None-Match is this ETag.
      res.send(page.bodies[encoding]);
    }
  };
}

/** A drawn page, compressed once per cache entry in the encoding a browser accepts. */
function sendDrawn(req: Request, res: Response, drawn: CachedJson): void {
  const encoding = req.acceptsEncodings('br', 'gzip', 'identity') || 'identity';
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  // The same page for every visitor (signed-in parts are drawn by the app): any cache may keep it, revalidated.
  res.setHeader('Cache-Control', 'no-cache');
  // Drawn in the visitor's language and display currency (the cookies, else Accept-Language).
  res.vary('Accept-Encoding').vary('Accept-Language').vary('Cookie');
  let body = drawn.body;
  if (encoding === 'br') body = drawn.br ??= brotliCompressSync(drawn.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } });
  else if (encoding === 'gzip') body = drawn.gzip ??= gzipSync(drawn.body, { level: 9 });
  if (encoding === 'br' || encoding === 'gzip') res.setHeader('Content-Encoding', encoding);
  res.setHeader('ETag', `${drawn.etag.slice(0, -1)}-${encoding}"`);
  res.send(body);
}

/** The server bundle's render function, imported once per build; null (and a warning) when it cannot be. */
async function loadRenderer(file: string, stamp: string, logger: Logger): Promise<RenderPage | null> {
  try {
    // The stamp in the URL: a rebuild in place is a new module, not the cached one.
    const mod = (await import(`${pathToFileURL(file).href}?build=${encodeURIComponent(stamp)}`)) as { render?: unknown };
    if (typeof mod.render === 'function') return mod.render as RenderPage;
    logger.warn({ file }, 'the server bundle exports no render function; pages are drawn in the browser');
  } catch (error) {
    logger.warn({ err: error, file }, 'the server bundle could not be loaded; pages are drawn in the browser');
  }
  return null;
}

/** The target of a `Link: <...>; rel="next"` header the catalogue's list sends, or null. */
function nextOf(link: string | undefined): string | null {
  return (link && /<([^>]+)>;\s*rel="next"/.exec(link)?.[1]) || null;
}

/**
 * The reads a drawn page shows, made through the catalogue's cached reads (what the
 * browser would get from the same URLs), and the packages they show; null when the page
 * cannot be drawn (a package that does not exist, a read the api does not make here).
 */
async function pageData(deps: WebAppDeps, urls: readonly string[]): Promise<{ data: PageData; shown: string[] } | null> {
  const data: PageData = { shopConfig: deps.shopConfig };
  const shown: string[] = [];
  for (const url of urls) {
    if (url === '/api/products') {
      const page = await deps.reads.firstPage();
      data.products = { items: JSON.parse(page.body.toString('utf8')) as ProductJson[], next: nextOf(page.link) };
      shown.push(...(page.productIds ?? []));
      continue;
    }
    const id = /^\/api\/products\/([^/]+)$/.exec(url)?.[1];
    if (!id) return null;
    let productId: string;
    try {
      productId = parseId(id, 'Product');
    } catch {
      return null;
    }
    const product = await deps.reads.product(productId);
    if (!product) return null;
    data.product = JSON.parse(product.body.toString('utf8')) as ProductJson;
    shown.push(productId);
  }
  return { data, shown };
}

/** index.html in a language: `<html lang>`, which the app reads to load its words. */
const withLang = (page: string, locale: Locale) => page.replace(/<html lang="[^"]*">/, () => `<html lang="${escapeHtml(locale)}">`);

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * index.html with the drawn page in it: its language, title and description, its
 * stylesheet and the resources React hoists (the largest image's preload) ahead of any
 * script, the app's chunks for the screen named for boot.ts (MODULES_META),
 * the markup in #root and the app's query cache after it. Null when index.html is not
 * the shape this expects (then the app draws the page).
 */
function drawnHtml(template: string, files: readonly string[], page: { html: string; title: string; description: string; state: string }, locale: Locale): string | null {
  const root = '<div id="root"></div>';
  if (!template.includes(root) || !template.includes('</head>')) return null;
  // renderToString puts the preloads React hoists (an image with fetchPriority high) first: they belong in the head.
  const hoisted = /^(?:<link [^>]*\/>)+/.exec(page.html)?.[0] ?? '';
  const markup = page.html.slice(hoisted.length);
  // What the page paints comes first (its stylesheet, its largest image); the app's code
  // is named for index.html's script (web/src/boot.ts), which asks for it once the page
  // is painted: fetched with the page, it would share a phone's bandwidth with the image.
  const stylesheets = template.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
  const modules = files.length > 0 ? `<meta name="${MODULES_META}" content="${escapeHtml(files.join(' '))}">` : '';
  let head = template;
  for (const sheet of stylesheets) head = head.replace(sheet, '');
  const firstScript = head.slice(0, head.indexOf('</head>')).search(/<script |<link [^>]*rel="modulepreload"/);
  const first = [...stylesheets, hoisted].join('');
  head = firstScript < 0 ? head.replace('</head>', () => `${first}</head>`) : `${head.slice(0, firstScript)}${first}${head.slice(firstScript)}`;
  return withLang(head, locale)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
    .replace(/(<meta name="description" content=")[^"]*(")/, (_m, open: string, close: string) => `${open}${escapeHtml(page.description)}${close}`)
    .replace('</head>', () => `${modules}</head>`)
    .replace(root, () => `<div id="root">${markup}</div><script type="application/json" id="${PAGE_STATE_ID}">${page.state}</script>`);
}

/** The build's list; a missing or unreadable one names nothing (the app still loads, a round trip later). */
function readScreens(file: string): Screen[] {
  let entries: unknown;
  try {
    entries = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  return entries
    .filter(
      (entry): entry is Omit<ScreenPreloads, 'data'> & { data?: readonly string[] } =>
        typeof entry?.path === 'string' &&
        typeof entry.access === 'string' &&
        Array.isArray(entry.files) &&
        entry.files.every((file: unknown) => typeof file === 'string' && /^\/assets\/[\w.-]+\.js$/.test(file)) &&
        (entry.data === undefined || (Array.isArray(entry.data) && entry.data.every((url: unknown) => typeof url === 'string' && /^\/api\/[\w/:-]+$/.test(url)))),
    )
    .map((entry) => {
      const segments = entry.path.split('/').filter(Boolean);
      return { ...entry, data: entry.data ?? [], drawn: entry.drawn === true, segments, fixed: segments.filter((s) => !s.startsWith(':')).length };
    })
    .sort((a, b) => b.fixed - a.fixed);
}

/** The screen a path shows, matched as the app's router does (case-insensitive, `:param` one segment). */
function screenAt(screens: Screen[], pathname: string): { screen: Screen; params: Map<string, string> } | undefined {
  const segments = pathname.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  // An empty segment ('//') is no screen's path, as for the app's router.
  if (segments.includes('')) return undefined;
  for (const screen of screens) {
    if (screen.segments.length !== segments.length) continue;
    const params = new Map<string, string>();
    const matches = screen.segments.every((segment, i) => {
      const value = segments[i] ?? '';
      if (!segment.startsWith(':')) return segment.toLowerCase() === value.toLowerCase();
      params.set(segment, value);
      return true;
    });
    if (matches) return { screen, params };
  }
  return undefined;
}

/** An id the api reads are named with: anything else in the path is not put into the page. */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The screen's reads with the path's parameters in, or none if a parameter is not a plain id. */
function dataFor(screen: Screen, params: Map<string, string>): string[] {
  const urls: string[] = [];
  for (const template of screen.data) {
    let plain = true;
    const url = template.replace(/:[A-Za-z]+/g, (name) => {
      const value = params.get(name) ?? '';
      if (!PLAIN_ID.test(value)) plain = false;
      return value;
    });
    if (plain) urls.push(url);
  }
  return urls;
}

/**
 * What to name for a request. A screen behind sign-in, asked for without a session
 * cookie, is one the app will send to /login: the sign-in screen's chunks are named
 * instead, and none of its reads.
 */
function preloadsFor(screens: Screen[], req: Request): Preloads {
  const match = screenAt(screens, req.path);
  if (!match) return { files: [], data: [], shared: true, private: false };
  const { screen, params } = match;
  const isPrivate = screen.access !== 'public';
  const signedIn = typeof (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE] === 'string';
  if (isPrivate && !signedIn) return { files: screenAt(screens, '/login')?.screen.files ?? [], data: [], shared: true, private: true };
  return {
    files: screen.files,
    data: dataFor(screen, params),
    shared: !screen.data.some((url) => url.includes(':')),
    private: isPrivate,
    drawn: screen.drawn === true && !isPrivate && dataFor(screen, params).length === screen.data.length,
  };
}
