import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import express, { type Request, type RequestHandler, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { ROUTE_PRELOADS_FILE, type ScreenPreloads } from '@shop/core/contract/route-preloads';
import { SESSION_COOKIE } from './middleware/auth.ts';

/**
 * The built web app (web/dist), served by the api:
 * - its files precompressed at build time (brotli, gzip), sent with their
 *   Content-Encoding to a browser that accepts it, and `Vary: Accept-Encoding`; hashed
 *   assets (`assets/`) cached for a year as immutable, since a change gets a new name;
 *   the rest (images, the favicon, robots.txt) for an hour;
 * - every other GET path (the app's client-side routes) answered with index.html,
 *   revalidated on every visit so a new release is seen at once, and naming the chunks
 *   of the screen at that path (`<link rel="modulepreload">`, from the build's
 *   route-preloads.json) so the browser fetches them together with the app.
 */
export function webApp(webDist: string): Router {
  const router = express.Router();
  const files = webFiles(webDist);
  router.use(files);
  router.get(/^\/(?!api\/|uploads\/|admin\/queues).*/, appPage(webDist, files));
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
/** What a page names; `shared` when it is the same for every visitor of the screen (no id in it). */
type Preloads = { files: readonly string[]; data: readonly string[]; shared: boolean; private: boolean };
type Page = { etag: string; bodies: Record<'br' | 'gzip' | 'identity', Buffer> };

/**
 * index.html for a client-side route, naming the screen's chunks and the api reads it
 * starts with. A page that is the same for every visitor of a screen is built and
 * compressed once, and again only when a new build replaces index.html or the list; one
 * that names an id is compressed per request, faster. A build without a readable
 * route-preloads.json gets index.html as it is.
 */
function appPage(webDist: string, files: RequestHandler): RequestHandler {
  const indexFile = path.join(webDist, 'index.html');
  const listFile = path.join(webDist, ROUTE_PRELOADS_FILE);
  let built = '';
  let html = '';
  let screens: Screen[] = [];
  const pages = new Map<string, Page>();

  /** The build as it is on disk, reread when either file changes (a rebuild in place). */
  const load = (): boolean => {
    const [index, list] = [indexFile, listFile].map((file) => statSync(file, { throwIfNoEntry: false }));
    if (!index) return false;
    const stamp = [index, list].map((stat) => (stat ? `${stat.mtimeMs}:${stat.size}` : '-')).join(' ');
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
    return true;
  };

  const build = ({ files: chunks, data }: Preloads, quality: number): Page => {
    const links = [
      ...chunks.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`),
      // The app's api client sends credentials ('include'): the preload must too, or the
      // browser fetches the data a second time.
      ...data.map((url) => `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${url}">`),
    ].join('');
    const identity = Buffer.from(links ? html.replace('</head>', () => `${links}</head>`) : html);
    return {
      etag: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
      bodies: {
        identity,
        br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }),
        gzip: gzipSync(identity, { level: quality === 11 ? 9 : 6 }),
      },
    };
  };

  const pageFor = (preloads: Preloads): Page => {
    if (!preloads.shared) return build(preloads, 5);
    const key = [...preloads.files, ...preloads.data].join(' ');
    let page = pages.get(key);
    if (!page) {
      page = build(preloads, 11);
      pages.set(key, page);
    }
    return page;
  };

  return (req, res, next) => {
    if (!load()) {
      req.url = '/index.html';
      files(req, res, next);
      return;
    }
    const preloads = preloadsFor(screens, req);
    const page = pageFor(preloads);
    const encoding = (req.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as keyof Page['bodies'];
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    // A signed-in screen's page depends on the session cookie: no shared cache keeps it.
    res.setHeader('Cache-Control', preloads.private ? 'private, no-cache' : 'no-cache');
    res.vary('Accept-Encoding');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.setHeader('ETag', `"${page.etag}-${encoding}"`);
    // res.send answers 304 to a request whose If-None-Match is this ETag.
    res.send(page.bodies[encoding]);
  };
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
      return { ...entry, data: entry.data ?? [], segments, fixed: segments.filter((s) => !s.startsWith(':')).length };
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
  return { files: screen.files, data: dataFor(screen, params), shared: !screen.data.some((url) => url.includes(':')), private: isPrivate };
}
