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

/** helmet's headers (nosniff, no framing, no referrer, HSTS in production, ...) with the app's CSP. */
export function securityHeaders(config: AppConfig): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: appDirectives(config) },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
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
