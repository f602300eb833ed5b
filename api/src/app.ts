import express, { type Express } from 'express';
import compression from 'compression';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from './deps.ts';
import { errorHandler, notFoundHandler } from './middleware/error-handler.ts';
import cookieParser from 'cookie-parser';
import { healthRoutes } from './modules/health/routes.ts';
import { shopConfigOf, shopConfigRoutes } from './modules/shop-config/routes.ts';
import { loadSession } from './middleware/auth.ts';
import { signInRoutes } from './modules/sign-in/routes.ts';
import { twoFactorRoutes } from './modules/two-factor/routes.ts';
import { profileRoutes } from './modules/profile/routes.ts';
import { balanceRoutes } from './modules/balances/routes.ts';
import { adminUserRoutes } from './modules/admin-users/routes.ts';
import { statementRoutes } from './modules/statement/routes.ts';
import { adminProductRoutes, catalogueReads, catalogueRoutes, productRoutes } from './modules/products/routes.ts';
import { adminOrderRoutes } from './modules/admin-orders/routes.ts';
import { CatalogueCache } from './modules/products/catalogue-cache.ts';
import { requestLog } from './middleware/request-log.ts';
import { dashboardCsp, securityHeaders, UPLOAD_HEADERS } from './middleware/security-headers.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { cryptoRoutes } from './modules/crypto/routes.ts';
import { adminPaymentRoutes } from './modules/admin-payments/routes.ts';
import { adminDepositRoutes } from './modules/admin-deposits/routes.ts';
import { adminCashoutRoutes } from './modules/admin-cashouts/routes.ts';
import { adminReconciliationRoutes } from './modules/admin-reconciliation/routes.ts';
import { adminRefundRoutes, refundRoutes } from './modules/payouts/routes.ts';
import { adminWebhookRoutes } from './modules/admin-webhooks/routes.ts';
import { adminAuditRoutes } from './modules/admin-audit/routes.ts';
import { adminApprovalRoutes } from './modules/admin-approvals/routes.ts';
import { adminExportRoutes, adminOverviewRoutes } from './modules/admin-overview/routes.ts';
import { queueDashboard, QUEUE_DASHBOARD_PATH } from './modules/ops/queue-dashboard.ts';
import { createMetrics } from './modules/ops/metrics.ts';
import { webApp } from './web-app.ts';
import { openApiRoutes } from './openapi/routes.ts';

/** Builds the HTTP app; the listener lives in server.ts so tests can mount the app alone. */
export function createApp(deps: AppDeps): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  // Which proxies may tell the client's address (X-Forwarded-For): see TRUST_PROXY.
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');

  const metrics = createMetrics(deps);
  // The log's one listener per request also hands each sent response to the metrics.
  app.use(requestLog(deps.logger, metrics.sent), securityHeaders(config));
  // The public catalogue needs no body, cookie or session: it answers before those run,
  // and before the compression middleware: it gzips its cached bodies itself, once.
  const catalogue = new CatalogueCache(config.catalogueCacheMs);
  const reads = catalogueReads(deps, catalogue);
  catalogueRoutes(app, reads);
  // JSON (and anything else not already encoded) gzipped for browsers that accept it;
  // the precompressed web build brings its own.
  app.use(compression());
  app.use(express.json({ limit: '100kb' }));
  app.use(cookieParser());
  app.use('/metrics', metrics.router);
  app.use(QUEUE_DASHBOARD_PATH, dashboardCsp(config), loadSession(deps), queueDashboard(deps));

  const api = express.Router();
  api.use('/health', loadSession(deps, { guestWhenUnavailable: true }), healthRoutes(deps));
  // The shop's network (the test-network banner, explorer links): public, no session needed.
  api.use('/config', shopConfigRoutes(deps));
  // The published contract and its reference page: public, no session needed.
  api.use(openApiRoutes(config));
  api.use(loadSession(deps));
  const modules: [string, express.Router][] = [
    // The account routes share /users, the admin's last: its `/:id` would take the others' paths.
    ['/users', signInRoutes(deps)],
    ['/users', twoFactorRoutes(deps)],
    ['/users', profileRoutes(deps)],
    ['/users', balanceRoutes(deps)],
    ['/users', adminUserRoutes(deps)],
    ['/users/profile', statementRoutes(deps)],
    ['/products', productRoutes(deps, catalogue)],
    ['/uploads', uploadRoutes(deps)],
    ['/orders', orderRoutes(deps, catalogue)],
    ['/crypto', cryptoRoutes(deps)],
    ['/admin/orders', adminOrderRoutes(deps)],
    ['/admin/products', adminProductRoutes(deps, catalogue)],
    ['/admin/payments', adminPaymentRoutes(deps)],
    ['/admin/deposits', adminDepositRoutes(deps)],
    ['/admin/cashouts', adminCashoutRoutes(deps)],
    ['/admin/reconciliation', adminReconciliationRoutes(deps)],
    ['/admin/refunds', adminRefundRoutes(deps)],
    ['/admin/webhooks', adminWebhookRoutes(deps)],
    ['/admin/audit', adminAuditRoutes(deps)],
    ['/admin/approvals', adminApprovalRoutes(deps, catalogue)],
    ['/admin/overview', adminOverviewRoutes(deps)],
    ['/admin/export', adminExportRoutes(deps)],
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
  if (config.serveWeb && existsSync(path.join(webDist, 'index.html'))) app.use(webApp(webDist, { catalogue, reads, shopConfig: shopConfigOf(config), logger: deps.logger }));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
