import express, { type Express } from 'express';
import expressStaticGzip from 'express-static-gzip';
import compression from 'compression';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from './deps.ts';
import { errorHandler, notFoundHandler } from './middleware/error-handler.ts';
import cookieParser from 'cookie-parser';
import { healthRoutes } from './modules/health/routes.ts';
import { loadSession } from './middleware/auth.ts';
import { userRoutes } from './modules/users/routes.ts';
import { catalogueRoutes, productRoutes } from './modules/products/routes.ts';
import { CatalogueCache } from './modules/products/catalogue-cache.ts';
import { requestLog } from './middleware/request-log.ts';
import { dashboardCsp, securityHeaders, UPLOAD_HEADERS } from './middleware/security-headers.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { cryptoRoutes } from './modules/crypto/routes.ts';
import { adminPaymentRoutes } from './modules/admin-payments/routes.ts';
import { adminCashoutRoutes } from './modules/admin-cashouts/routes.ts';
import { adminReconciliationRoutes } from './modules/admin-reconciliation/routes.ts';
import { adminRefundRoutes, refundRoutes } from './modules/payouts/routes.ts';
import { adminWebhookRoutes } from './modules/admin-webhooks/routes.ts';
import { queueDashboard, QUEUE_DASHBOARD_PATH } from './modules/ops/queue-dashboard.ts';
import { createMetrics } from './modules/ops/metrics.ts';

/** Builds the HTTP app; the listener lives in server.ts so tests can mount the app alone. */
export function createApp(deps: AppDeps): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  // Which proxies may tell the client's address (X-Forwarded-For): see TRUST_PROXY.
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');

  const metrics = createMetrics(deps);
  app.use(requestLog(deps.logger), metrics.track, securityHeaders(config));
  // JSON (and anything else not already encoded) gzipped for browsers that accept it;
  // the catalogue's cached bodies and the precompressed web build bring their own.
  app.use(compression());
  // The public catalogue needs no body, cookie or session: it answers before those run.
  const catalogue = new CatalogueCache(config.catalogueCacheMs);
  catalogueRoutes(app, deps, catalogue);
  app.use(express.json({ limit: '100kb' }));
  app.use(cookieParser());
  app.use('/metrics', metrics.router);
  app.use(QUEUE_DASHBOARD_PATH, dashboardCsp(config), loadSession(deps), queueDashboard(deps));

  const api = express.Router();
  api.use('/health', loadSession(deps, { guestWhenUnavailable: true }), healthRoutes(deps));
  api.use(loadSession(deps));
  const modules: [string, express.Router][] = [
    ['/users', userRoutes(deps)],
    ['/products', productRoutes(deps, catalogue)],
    ['/uploads', uploadRoutes(deps)],
    ['/orders', orderRoutes(deps, catalogue)],
    ['/crypto', cryptoRoutes(deps)],
    ['/admin/payments', adminPaymentRoutes(deps)],
    ['/admin/cashouts', adminCashoutRoutes(deps)],
    ['/admin/reconciliation', adminReconciliationRoutes(deps)],
    ['/admin/refunds', adminRefundRoutes(deps)],
    ['/admin/webhooks', adminWebhookRoutes(deps)],
    ['/refunds', refundRoutes(deps)],
  ];
  for (const [mount, router] of modules) api.use(mount, metrics.rememberMount, router);
  api.use(notFoundHandler);
  app.use('/api', api);

  app.use(
    '/uploads',
    express.static(path.resolve(config.uploadsDir), {
      index: false,
      fallthrough: false,
      maxAge: '7d',
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(UPLOAD_HEADERS)) res.setHeader(name, value);
      },
    }),
  );

  const webDist = path.resolve(config.webDistDir);
  if (config.serveWeb && existsSync(path.join(webDist, 'index.html'))) {
    const serveWeb = webAssets(webDist);
    app.use(serveWeb);
    // The single-page app owns every other GET path (client-side routes): its index.html.
    app.get(/^\/(?!api\/|uploads\/|admin\/queues).*/, (req, res, next) => {
      req.url = '/index.html';
      serveWeb(req, res, next);
    });
  }

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

/**
 * The built web app: the files Vite precompressed at build time (brotli, gzip) sent with
 * their Content-Encoding to a browser that accepts it (and `Vary: Accept-Encoding`);
 * hashed assets (`assets/`) cached for a year as immutable, since a change gets a new
 * name; index.html revalidated on every visit, so a new release is seen at once; the
 * rest (images, the favicon, robots.txt) cached for an hour.
 */
function webAssets(webDist: string) {
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

