import { Router, type Application, type RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { queueNames } from '@shop/core';
import type { AppDeps } from '../../deps.ts';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * bull-board's page template links Google's fonts (IBM Plex), the one thing it would load
 * from another host: the page leaves out every <link> to an absolute URL, and its
 * stylesheet falls back to the system fonts it names next. The dashboard's CSP
 * (dashboardCsp) refuses any other host anyway.
 */
const LINK_TO_ANOTHER_HOST = /<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>\s*/gi;

/**
 * The way back, on screen at every width: bull-board's own 'Back to the shop' (miscLinks)
 * sits in a menu behind an unnamed icon. Plain markup, styled by attributes the
 * dashboard's CSP allows (style-src 'unsafe-inline'); no script.
 */
export const BACK_TO_SHOP =
  '<a href="/" id="back-to-shop" style="position:fixed;left:12px;bottom:12px;z-index:2000;padding:8px 14px;border-radius:6px;' +
  'background:#18181b;color:#fff;font:500 14px/1.4 system-ui,sans-serif;text-decoration:none">&larr; Back to the shop</a>';

/**
 * bull-board's search field shows its keyboard shortcut in grey on grey (4.4:1, below
 * WCAG AA's 4.5:1): a darker grey, by the class-name prefix its build keeps.
 */
export const READABLE_SHORTCUT = '<style>kbd[class^="searchShortcut"]{color:#3f4a54}</style>';

function withoutLinksToOtherHosts(html: string): string {
  return html
    .replace(LINK_TO_ANOTHER_HOST, '')
    .replace(/<\/head>/i, (head) => `${READABLE_SHORTCUT}${head}`)
    .replace(/<body([^>]*)>/i, (body) => `${body}${BACK_TO_SHOP}`);
}

type ViewEngine = (file: string, options: object, callback: (err: Error | null, html?: string) => void) => void;

/** Passes bull-board's page through withoutLinksToOtherHosts as its view engine renders it. */
function stripLinksToOtherHosts(board: Application): void {
  // Express keeps an app's view engines by extension; bull-board registers ejs's.
  const engines = (board as unknown as { engines: Record<string, ViewEngine | undefined> }).engines;
  const render = engines['.ejs'];
  if (!render) throw new Error('bull-board no longer renders its page with ejs: check that it loads nothing from other hosts');
  board.engine('ejs', (file, options, callback) =>
    render(file, options, (err, html) => callback(err, html === undefined ? html : withoutLinksToOtherHosts(html))),
  );
}

/**
 * The BullMQ dashboard (bull-board) for operators, admins only: a guest is sent to the
 * sign-in page and back, a signed-in non-admin gets 403. The session middleware runs
 * before this router (app.ts).
 */
export function queueDashboard(deps: AppDeps): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: queueNames.map((name) => new BullMQAdapter(deps.queues[name])),
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: 'ETH Shop queues',
        // The way back to the shop (in the board's header menu); no link to bull-board's docs.
        miscLinks: [{ text: 'Back to the shop', url: '/' }],
        hideDocsLink: true,
      },
    },
  });
  stripLinksToOtherHosts(serverAdapter.getRouter() as Application);
  // bull-board answers 500 for anything a handler throws, and BullMQ throws when a job is
  // no longer where the dashboard saw it (promoted, retried or removed meanwhile): that
  // is a conflict or a missing job, not a fault.
  serverAdapter.setErrorHandler((error: Error & { statusCode?: number }) => {
    const message = error.message || 'Error';
    const given = [400, 403, 404, 405, 409].find((s) => s === error.statusCode) as 400 | 403 | 404 | 405 | 409 | undefined;
    const status = given ?? (/could not be found|missing key|does not exist/i.test(message) ? 404 : /not in the \w+ state|is locked|already|belongs to a job scheduler/i.test(message) ? 409 : 500);
    if (status >= 500) deps.logger.error({ err: error }, 'queue dashboard action failed');
    return { status, body: { error: { key: status === 404 ? 'ERRORS.JOB_NOT_FOUND' : 'ERRORS.INTERNAL_SERVER_ERROR' }, message } };
  });
  const guard: RequestHandler = (req, res, next) => {
    if (!req.user) {
      if (req.method === 'GET' && !req.path.startsWith('/api/') && req.accepts(['html', 'json']) === 'html') {
        res.redirect(302, `/login?redirect=${encodeURIComponent(QUEUE_DASHBOARD_PATH)}`);
        return;
      }
      res.status(401).json({ message: 'Not authorized, please sign in' });
      return;
    }
    if (!req.user.isAdmin) {
      if (req.method === 'GET' && !req.path.startsWith('/api/') && req.accepts(['html', 'json']) === 'html') {
        res
          .status(403)
          .type('html')
          .send('<!doctype html><html lang="en"><title>Not allowed</title><main style="font-family:sans-serif;margin:3rem"><h1 style="font-size:1.25rem">Not allowed</h1><p>Not authorized as an admin. <a href="/">Back to the shop</a></p></main></html>');
        return;
      }
      res.status(403).json({ message: 'Not authorized as an admin' });
      return;
    }
    next();
  };
  const router = Router();
  router.use(guard, serverAdapter.getRouter() as Router);
  return router;
}
