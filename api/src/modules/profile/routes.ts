import { Router, type RequestHandler } from 'express';
import { localeBody, updateProfileBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { accountGuards } from '../../middleware/accounts.ts';
import { requireStepUp, requireUser } from '../../middleware/auth.ts';
import { auditContext } from '../../middleware/audit.ts';
import { byCreatedAt, pageQuery, sendPage } from '../../middleware/paging.ts';
import { parseBody } from '../../middleware/validate.ts';
import { rememberLocale } from '../../middleware/locale.ts';
import { getUserJson, referralsPage, updateProfile } from './service.ts';

/** The signed-in user's own account (under /api/users/profile): reading and editing it, the people it referred. */
export function profileRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = Router();
  const { passwordGuesses, handOnAfter } = accountGuards(deps);

  router.get('/profile', requireUser, async (req, res) => {
    res.json(await getUserJson(db, req.user!.id));
  });

  // A new e-mail or password locks the owner out: with a second factor on, it needs one.
  const stepUpForCredentials: RequestHandler = (req, res, next) => {
    const body = req.body as { email?: unknown; password?: unknown } | undefined;
    const changesCredentials = (typeof body?.email === 'string' && body.email.trim().toLowerCase() !== req.user?.email) || (typeof body?.password === 'string' && body.password !== '');
    return changesCredentials ? requireStepUp(req, res, next) : next();
  };
  router.put('/profile', requireUser, passwordGuesses('currentPassword'), stepUpForCredentials, async (req, res) => {
    const input = parseBody(updateProfileBody, req.body);
    const { user, effects } = await updateProfile(db, { ...auditContext(req), userId: req.user!.id, sessionId: req.sessionId }, input);
    await handOnAfter(req, effects);
    res.json(user);
  });

  // The language the user chose in the footer: their e-mails' and, on signing in, any browser's.
  router.put('/profile/locale', requireUser, async (req, res) => {
    const { locale } = parseBody(localeBody, req.body);
    await db.user.update({ where: { id: req.user!.id }, data: { locale }, select: { id: true } });
    rememberLocale(res, deps.config, locale);
    res.json({ message: 'Language saved' });
  });

  router.get('/profile/referrals', requireUser, async (req, res) => {
    const page = pageQuery(req);
    const rows = await referralsPage(db, req.user!.id, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => shown.map((r) => ({ _id: r.id, name: r.name })));
  });

  return router;
}
