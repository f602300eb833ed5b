import { Router, type RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { queueNames } from '@shop/core';
import type { AppDeps } from '../../deps.ts';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

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
    options: { uiConfig: { boardTitle: 'ETH Shop queues' } },
  });
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
