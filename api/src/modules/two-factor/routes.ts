import { Router, type RequestHandler } from 'express';
import {
  badRequest, CODE_WRONG, confirmTotpEnrolment, disableTotp, dropPasskeySetUp, listPasskeys, markStepUp, PASSKEY_WRONG, passkeyAssertionOptions, passkeyRegistrationOptions,
  recoveryCodesLeft, registerPasskey, relyingParty, removePasskey, startTotpEnrolment, usePasskey, useSecondFactor, verifyPassword,
} from '@shop/core';
import { passkeyRegistrationBody, passwordCheckBody, stepUpBody, twoFactorCodeBody, type TwoFactorStatus } from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { accountGuards } from '../../middleware/accounts.ts';
import { requireStepUp, requireUser } from '../../middleware/auth.ts';
import { auditContext, audited } from '../../middleware/audit.ts';
import { rateLimit } from '../../middleware/rate-limit.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';

/**
 * Two-factor sign-in (under /api/users/2fa): the state, enrolment (secret and QR URL, then
 * a first code), passkeys, turning it off with a current code, and a second factor again
 * for money actions (the step-up).
 */
export function twoFactorRoutes(deps: AppDeps): Router {
  const { db, config } = deps;
  const router = Router();
  const { codeAttempts, passwordGuesses, handOnAfter } = accountGuards(deps);
  // Wrong codes are limited like sign-in attempts.
  const codeLimit = rateLimit(deps, {
    name: 'two-factor-code',
    limit: config.rateLimitAuthPerMinute,
    windowSeconds: 60,
    keys: (req) => [`ip:${req.ip}`, req.user && `user:${req.user.id}`],
  });

  router.get('/2fa', requireUser, async (req, res) => {
    const user = await db.user.findUniqueOrThrow({ where: { id: req.user!.id }, select: { totpEnabledAt: true } });
    const status: TwoFactorStatus = {
      on: req.user!.twoFactor,
      totp: user.totpEnabledAt !== null,
      passkeys: await listPasskeys(db, req.user!.id),
      recoveryCodesLeft: req.user!.twoFactor ? await recoveryCodesLeft(db, req.user!.id) : 0,
      required: (req.user!.isAdmin || req.user!.mustEnrol) && config.admin2faRequired,
    };
    res.json(status);
  });
  // Adding a factor to an account that has one needs that one now (a stolen session and
  // password must not add the thief's own authenticator).
  router.post('/2fa/totp', requireUser, codeLimit, passwordGuesses('password'), requireStepUp, async (req, res) => {
    const { password } = parseBody(passwordCheckBody, req.body);
    res.json(await startTotpEnrolment(db, config, req.user!.id, password));
  });
  // Turning it on with a factor already on needs that one now, as starting it does.
  router.post('/2fa/totp/confirm', requireUser, codeLimit, codeAttempts, requireStepUp, async (req, res) => {
    const { code } = parseBody(twoFactorCodeBody, req.body);
    const { recoveryCodes, effects } = await confirmTotpEnrolment(db, config, auditContext(req), { userId: req.user!.id, sessionId: req.sessionId }, code);
    // A factor added ends any other set-up still pending (a passkey's challenge).
    await dropPasskeySetUp(deps, req.user!.id);
    await handOnAfter(req, effects);
    res.json({ recoveryCodes });
  });
  // Passkeys: options for the browser (the password again, as for TOTP), then the new passkey; removing one.
  const rpOf = (req: Parameters<RequestHandler>[0]) => relyingParty(config, req.get('origin'));
  router.post('/2fa/passkeys/options', requireUser, codeLimit, passwordGuesses('password'), requireStepUp, async (req, res) => {
    const { password } = parseBody(passwordCheckBody, req.body);
    const { passwordHash } = await db.user.findUniqueOrThrow({ where: { id: req.user!.id }, select: { passwordHash: true } });
    if (!(await verifyPassword(passwordHash, password))) throw badRequest('That password is not right.');
    res.json(await passkeyRegistrationOptions(deps, rpOf(req), req.user!.id));
  });
  router.post('/2fa/passkeys', requireUser, codeLimit, requireStepUp, async (req, res) => {
    const input = parseBody(passkeyRegistrationBody, req.body);
    const { effects, ...registered } = await registerPasskey(deps, rpOf(req), auditContext(req), { userId: req.user!.id, sessionId: req.sessionId }, input);
    await handOnAfter(req, effects);
    res.status(201).json(registered);
  });
  router.delete('/2fa/passkeys/:id', requireUser, requireStepUp, async (req, res) => {
    const keepOneFactor = (req.user!.isAdmin || req.user!.mustEnrol) && config.admin2faRequired;
    const effects = await removePasskey(deps, auditContext(req), req.user!.id, parseId(req.params.id, 'Passkey'), { keepOneFactor, sessionId: req.sessionId });
    await handOnAfter(req, effects);
    res.json({ message: 'Passkey removed' });
  });

  // A second factor again, for money actions: good for STEP_UP_MS in this session. With a
  // passkey: options first (the challenge kept for this session), then its answer.
  router.post('/2fa/step-up/options', requireUser, codeLimit, async (req, res) => {
    const options = req.sessionId ? await passkeyAssertionOptions(deps, () => rpOf(req), 'step-up', req.sessionId, req.user!.id) : null;
    if (!options) throw badRequest('You have no passkey: enter a code instead.');
    res.json(options);
  });
  router.post('/2fa/step-up', requireUser, codeLimit, codeAttempts, async (req, res) => {
    const body = parseBody(stepUpBody, req.body);
    if (!req.user!.twoFactor) throw badRequest('Turn on two-factor sign-in first.');
    if (!req.sessionId) throw badRequest(CODE_WRONG);
    const check =
      'passkey' in body
        ? (await usePasskey(deps, rpOf(req), 'step-up', req.sessionId, req.user!.id, body.passkey))
          ? { factor: 'passkey' as const }
          : { factor: null, refusal: PASSKEY_WRONG }
        : await useSecondFactor(db, config, req.user!.id, body.code);
    if (check.factor === null) throw badRequest(check.refusal);
    const { factor } = check;
    await markStepUp(db, req.sessionId);
    await audited(req, db, { action: '2fa.step_up', subject: { type: 'user', id: req.user!.id }, after: { with: factor } });
    res.json({ message: 'Confirmed' });
  });
  router.post('/2fa/totp/disable', requireUser, codeLimit, codeAttempts, async (req, res) => {
    const { code } = parseBody(twoFactorCodeBody, req.body);
    if (req.user!.isAdmin && config.admin2faRequired) throw badRequest('Admins of this shop must keep two-factor sign-in on.');
    await handOnAfter(req, await disableTotp(db, config, auditContext(req), req.user!.id, code));
    res.json({ message: 'Two-factor sign-in is off' });
  });

  return router;
}
