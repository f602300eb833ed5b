import { Router } from 'express';
import { checkPasswordReset, confirmPasswordReset, jobs, relyingParty, requestPasswordReset, RESET_LINK_WORKS, RESET_REQUESTED_MESSAGE } from '@shop/core';
import { isLocale, loginBody, passwordResetBody, passwordResetCheckBody, passwordResetConfirmBody, referrerQuery, registerBody } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { accountGuards } from '../../middleware/accounts.ts';
import { endSession, startSession } from '../../middleware/auth.ts';
import { auditContext } from '../../middleware/audit.ts';
import { parseBody } from '../../middleware/validate.ts';
import { rememberLocale, requestLocale } from '../../middleware/locale.ts';
import { login, referrerOf, register } from './service.ts';

/** Joining, signing in and out, a forgotten password (under /api/users). */
export function signInRoutes(deps: AppDeps): Router {
  const { db, config } = deps;
  const router = Router();
  const { authLimit, spendSignInCode, handOnAfter } = accountGuards(deps);

  router.post('/', authLimit('register'), async (req, res) => {
    const input = parseBody(registerBody, req.body);
    const { user, effects } = await register(db, input, requestLocale(req));
    await startSession(res, deps, user._id);
    // The welcome e-mail, noted with the account (an outbox row): a lost hand-off is the sweeper's.
    await handOnAfter(req, effects);
    res.status(201).json(user);
  });

  // The register page names who invited the visitor. Codes tried count per address like
  // sign-ins: a code is a short secret, and this is not a way to list the shop's people.
  router.get('/referrer', authLimit('referrer'), async (req, res) => {
    const { referralCode } = parseBody(referrerQuery, req.query);
    res.json(await referrerOf(db, referralCode));
  });

  router.post('/login', authLimit('login'), async (req, res) => {
    const input = parseBody(loginBody, req.body);
    const { user, secondFactor } = await login(deps, () => relyingParty(config, req.get('origin')), auditContext(req, null), input, spendSignInCode);
    // Signed in with a code: that is a second factor given now (money actions need one).
    await startSession(res, deps, user._id, { stepUp: secondFactor !== undefined });
    // The account's language follows it to this browser.
    const account = await db.user.findUnique({ where: { id: user._id }, select: { locale: true } });
    if (isLocale(account?.locale)) rememberLocale(res, config, account.locale);
    res.json(user);
  });

  // The same answer whether or not the e-mail has an account; the link goes by e-mail.
  router.post('/password-reset', authLimit('password-reset'), async (req, res) => {
    const { email } = parseBody(passwordResetBody, req.body);
    const resetId = await requestPasswordReset(db, config, auditContext(req, null), email);
    if (resetId) {
      await jobs.sendPasswordReset(deps.queues, resetId).catch((err: unknown) =>
        req.log.error({ err, reset_id: resetId }, 'password reset e-mail not queued'),
      );
    }
    res.status(202).json({ message: RESET_REQUESTED_MESSAGE });
  });

  // Opening the link: whether it still works, before a password is typed (one answer
  // whatever the reason it does not; tokens tried from an address count like sign-ins).
  router.post('/password-reset/check', authLimit('password-reset-check'), async (req, res) => {
    const { token } = parseBody(passwordResetCheckBody, req.body);
    await checkPasswordReset(db, token);
    res.json({ message: RESET_LINK_WORKS });
  });

  router.post('/password-reset/confirm', authLimit('password-reset-confirm'), async (req, res) => {
    const input = parseBody(passwordResetConfirmBody, req.body);
    const { resetId } = await confirmPasswordReset(db, auditContext(req, null), input);
    // Every session ended, this one too.
    await endSession(req, res, deps);
    await jobs.sendPasswordChanged(deps.queues, resetId).catch((err: unknown) =>
      req.log.error({ err, reset_id: resetId }, 'password change notice not queued'),
    );
    res.json({ message: 'Your password was changed. Sign in with the new one.' });
  });

  router.post('/logout', async (req, res) => {
    await endSession(req, res, deps);
    res.json({ message: 'Logged out' });
  });

  return router;
}
