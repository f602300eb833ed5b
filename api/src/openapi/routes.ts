import { Router, type RequestHandler } from 'express';
import helmet from 'helmet';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AppConfig } from '@shop/core';
import { appDirectives } from '../middleware/security-headers.ts';
import { openApiDocument } from './document.ts';

/** Where the reference page's renderer is served from: swagger-ui-dist's own files, from node_modules, never a CDN. */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: path.join(SWAGGER_UI_DIR, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
};

export const DOCS_PATH = '/api/docs';

// The page starts Swagger UI from a script file of its own: no inline script, so the
// page runs under script-src 'self'. No validator badge (it would call validator.swagger.io).
const START_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#docs',
    validatorUrl: null,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    withCredentials: true,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ETH Shop API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
</head>
<body>
<div id="docs"><noscript>The reference needs JavaScript; the document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript></div>
<script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/assets/start.js"></script>
</body>
</html>
`;

/**
 * The reference page's CSP: the shop's, narrowed like the queue dashboard's (images only
 * from this origin or data: URLs, which Swagger UI's icons are; fetches to this origin
 * only). Swagger UI needs no eval and no inline script; it sets inline styles, which the
 * shop's policy allows already (style-src 'unsafe-inline').
 */
export function docsCsp(config: AppConfig): RequestHandler {
  return helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: { ...appDirectives(config), 'img-src': ["'self'", 'data:'], 'connect-src': ["'self'"] },
  });
}

/** GET /api/openapi.json (the document) and GET /api/docs (its reference page); both public. */
export function openApiRoutes(config: AppConfig): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(openApiDocument());
  });
  const csp = docsCsp(config);
  router.get('/docs', csp, (_req, res) => {
    res.type('html').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE);
  });
  router.get('/docs/assets/:file', csp, (req, res, next) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    const name = String(req.params.file);
    if (name === 'start.js') {
      res.type('text/javascript; charset=utf-8').send(START_SCRIPT);
      return;
    }
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) return next();
    res.type(asset.type).sendFile(asset.file);
  });
  return router;
}
