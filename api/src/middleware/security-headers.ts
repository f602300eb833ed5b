import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { AppConfig } from '@shop/core';

type Directives = Record<string, string[]>;

/**
 * The Content-Security-Policy the built web app runs under: its own scripts only, no
 * framing by any site (the pay page starts wallet transactions), connections to this
 * origin only. Radix and the toasts set inline styles. Package images may be https
 * URLs. In development the pay page's dev wallet talks to the local node directly, so
 * that origin is allowed there, never in production.
 */
export function appDirectives(config: AppConfig): Directives {
  const dev = !config.isProduction;
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'https:', ...(dev ? ['http:'] : [])],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(dev ? [new URL(config.ethRpcUrl).origin] : [])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(config.isProduction ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** helmet's options for every response: the app's CSP, no framing, HSTS in production. */
export function appHelmet(config: AppConfig): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: appDirectives(config) },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}

/** What a helmet middleware does to a response: the headers it sets, the ones it removes. */
export type HeaderSet = { set: readonly (readonly [string, string])[]; removed: readonly string[] };

/**
 * Runs a helmet middleware once against a recording response. The app's options are
 * constants (`Directives` holds strings, so no per-request CSP nonce), so what it did once
 * it does on every request; a middleware that does not finish synchronously, or sets
 * anything but a string, is refused.
 */
export function recordHeaders(middleware: RequestHandler): HeaderSet {
  const set: [string, string][] = [];
  const removed: string[] = [];
  let done = false;
  const res = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`security header ${name} is not a constant string`);
      set.push([name, value]);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  middleware({} as never, res as never, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    done = true;
  });
  if (!done) throw new Error('the security header middleware did not finish synchronously');
  return { set, removed };
}

/** helmet's headers for the app (computed once from helmet; see recordHeaders). */
export function securityHeaderSet(config: AppConfig): HeaderSet {
  return recordHeaders(appHelmet(config));
}

/**
 * helmet's headers (nosniff, no framing, no referrer, HSTS in production, ...) with the
 * app's CSP, set on every response. helmet is run once, when the app is built, and its
 * headers replayed: the same headers, without a dozen nested middlewares per request.
 */
export function securityHeaders(config: AppConfig): RequestHandler {
  const recorded = securityHeaderSet(config);
  // Names in lower case, as Node keys them: setHeader's toLowerCase then returns the name
  // itself instead of a new string for every header of every response (HTTP names are
  // case-insensitive; HTTP/2 sends them in lower case anyway).
  const set = recorded.set.map(([name, value]) => [name.toLowerCase(), value] as const);
  const removed = recorded.removed.map((name) => name.toLowerCase());
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

/**
 * The queue dashboard (bull-board) is a separate app, served with nothing from another
 * host (queue-dashboard.ts leaves out its template's Google fonts link): this CSP refuses
 * any such load there, images and the dev wallet's node included. Still no framing and
 * only its own scripts.
 */
export function dashboardCsp(config: AppConfig): RequestHandler {
  const base = appDirectives(config);
  return helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: { ...base, 'img-src': ["'self'", 'data:'], 'connect-src': ["'self'"] },
  });
}

/** Uploaded files: never sniffed into another type, and inert if opened on their own. */
export const UPLOAD_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;
