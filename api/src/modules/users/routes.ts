import { Router } from 'express';
import { exchangeBalance, getEthUsd, jobs, requestCashout, withTimeout } from '@shop/core';
import { adminUpdateUserBody, cashoutBody, loginBody, registerBody, updateProfileBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { endSession, requireAdmin, requireUser, startSession } from '../../middleware/auth.ts';
import { rateLimit } from '../../middleware/rate-limit.ts';
import { byCreatedAt, pageQuery, searchTerm, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import * as users from './service.ts';

export function userRoutes(deps: AppDeps): Router {
  const { db, config } = deps;
  const router = Router();
  const emailOf = (body: unknown) => {
    const email = (body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' ? `email:${email.trim().toLowerCase()}` : undefined;
  };
  const authLimit = (name: string) =>
    rateLimit(deps, {
      name,
      limit: config.rateLimitAuthPerMinute,
      windowSeconds: 60,
      keys: (req) => [`ip:${req.ip}`, emailOf(req.body)],
    });

  router.post('/', authLimit('register'), async (req, res) => {
    const input = parseBody(registerBody, req.body);
    const user = await users.register(db, input);
    await startSession(res, deps, user._id);
    res.status(201).json(user);
  });

  router.post('/login', authLimit('login'), async (req, res) => {
    const input = parseBody(loginBody, req.body);
    const user = await users.login(db, input);
    await startSession(res, deps, user._id);
    res.json(user);
  });

  router.post('/logout', async (req, res) => {
    await endSession(req, res, deps);
    res.json({ message: 'Logged out' });
  });

  router.get('/profile', requireUser, async (req, res) => {
    res.json(await users.getUserJson(db, req.user!.id));
  });

  router.put('/profile', requireUser, async (req, res) => {
    const input = parseBody(updateProfileBody, req.body);
    res.json(await users.updateProfile(db, { userId: req.user!.id, sessionId: req.sessionId }, input));
  });

  router.post('/exchange', requireUser, async (req, res) => {
    await exchangeBalance(db, req.user!.id);
    const user = await users.getUserJson(db, req.user!.id);
    res.json({ message: 'Balance exchanged!', activeBalance: user.activeBalance, passiveBalance: user.passiveBalance });
  });

  router.post('/cashout', requireUser, async (req, res) => {
    const { wallet } = parseBody(cashoutBody, req.body);
    // The price is recorded for the operator when the feed answers; a cashout does not wait for it.
    const price = await withTimeout(getEthUsd(deps), 2_000).catch(() => undefined);
    const { cashoutId } = await requestCashout(db, config, { userId: req.user!.id, wallet, ethUsd: price?.price });
    // Stored first, then the notice is queued; the sweeper re-queues it if this fails.
    await jobs.sendCashoutNotice(deps.queues, cashoutId).catch((err: unknown) =>
      req.log.warn({ err, cashout_id: cashoutId }, 'cashout notice not queued; the sweeper will retry'),
    );
    res.json(await users.getUserJson(db, req.user!.id));
  });

  router.get('/profile/referrals', requireUser, async (req, res) => {
    const page = pageQuery(req);
    const rows = await users.referralsPage(db, req.user!.id, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => shown.map((r) => ({ _id: r.id, name: r.name })));
  });

  router.get('/', requireAdmin, async (req, res) => {
    const page = pageQuery(req);
    const rows = await users.usersPage(db, searchTerm(req), page);
    await sendPage(req, res, page, rows, byCreatedAt, users.userListJson);
  });

  router.get('/:id', requireAdmin, async (req, res) => {
    res.json(await users.getUserJson(db, parseId(req.params.id, 'User')));
  });

  router.put('/:id', requireAdmin, async (req, res) => {
    const id = parseId(req.params.id, 'User');
    const input = parseBody(adminUpdateUserBody, req.body);
    res.json(await users.adminUpdateUser(db, req.user!, id, input));
  });

  router.delete('/:id', requireAdmin, async (req, res) => {
    await users.adminDeleteUser(db, parseId(req.params.id, 'User'));
    res.json({ message: 'User removed' });
  });

  return router;
}
