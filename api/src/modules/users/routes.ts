import { Router, type Request, type RequestHandler } from 'express';
import {
  badRequest, cancelByLink, checkPasswordReset, CODE_WRONG, confirmPasswordReset, markStepUp, useSecondFactor, confirmTotpEnrolment, disableTotp, dropPasskeySetUp, exchangeBalance, handOn, jobs,
  listPasskeys, PASSKEY_WRONG, passkeyAssertionOptions, passkeyRegistrationOptions, previewCashout, recoveryCodesLeft, registerPasskey, relyingParty, removePasskey, requestCashout,
  requestPasswordReset, RESET_LINK_WORKS, RESET_REQUESTED_MESSAGE, startTotpEnrolment, usePasskey, verifyPassword, withTimeout, type Effect,
} from '@shop/core';
import {
  adminUpdateUserBody, cancelCashoutBody, cashoutBody, loginBody, passkeyRegistrationBody, passwordCheckBody, passwordResetBody, passwordResetCheckBody, passwordResetConfirmBody, registerBody, stepUpBody,
  twoFactorCodeBody, updateProfileBody, usdNumber,
  type CashoutCancelJson, type CashoutPreviewJson, type TwoFactorStatus,
} from '@shop/core/contract';
import type { AppDeps } from '../../deps.ts';
import { endSession, requireAdmin, requireStepUp, requireStepUpForMoneyOut, requireUser, startSession } from '../../middleware/auth.ts';
import { auditContext, audited, signedInActor } from '../../middleware/audit.ts';
import { rateLimit, spendAttempt } from '../../middleware/rate-limit.ts';
import { byCreatedAt, pageQuery, searchTerm, sendPage } from '../../middleware/paging.ts';
import { parseBody, parseId } from '../../middleware/validate.ts';
import * as users from './service.ts';

/** Second-factor codes tried per account in 15 minutes (sign-in, step-up, enrolment, turning off). */
export const SECOND_FACTOR_ATTEMPTS = 10;

export function userRoutes(deps: AppDeps): Router {
  const { db, config } = deps;
  const router = Router();
  // What a committed change sets off (security e-mails, the operator's notice): a failed
  // hand-off is logged, and the sweeper hands it on later.
  const handOnAfter = (req: Request, effects: Effect[]) =>
    handOn(deps.queues, effects, (err, effect) => req.log.warn({ err, effect: effect.kind }, 'e-mail not queued; the sweeper will retry'));
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

  // Second-factor codes: one budget per account per quarter hour whatever the addresses
  // and wherever they are tried (sign-in, step-up, enrolment, turning off), on top of the
  // sign-in limit (a 6-digit code must not be guessable at 10 tries a minute). The signed-in
  // routes count against the session's account before the handler; sign-in counts inside
  // its handler (whatever the path's spelling), and only once the password was right:
  // someone who knows only an e-mail cannot use up its owner's codes.
  const codeBudget = { name: 'second-factor', limit: SECOND_FACTOR_ATTEMPTS, windowSeconds: 900, message: 'Too many codes tried' };
  const codeAttempts = rateLimit(deps, { ...codeBudget, keys: (req) => [req.user && `user:${req.user.id}`] });
  const spendSignInCode = (userId: string) => spendAttempt(deps, codeBudget, [`user:${userId}`]);
  router.post('/login', authLimit('login'), async (req, res) => {
    const input = parseBody(loginBody, req.body);
    const { user, secondFactor } = await users.login(deps, () => relyingParty(config, req.get('origin')), auditContext(req, null), input, spendSignInCode);
    // Signed in with a code: that is a second factor given now (money actions need one).
    await startSession(res, deps, user._id, { stepUp: secondFactor !== undefined });
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

  // Two-factor sign-in: the state, enrolment (secret and QR URL, then a first code), and
  // turning it off with a current code. Wrong codes are limited like sign-in attempts.
  const codeLimit = rateLimit(deps, {
    name: 'two-factor-code',
    limit: config.rateLimitAuthPerMinute,
    windowSeconds: 60,
    keys: (req) => [`ip:${req.ip}`, req.user && `user:${req.user.id}`],
  });
  // A password sent to prove who is asking is a password guess: it spends the sign-in
  // budget of the address and of the account (a stolen session must not try passwords
  // without end, at the profile or by starting a second factor).
  const passwordGuesses = (field: 'currentPassword' | 'password') => rateLimit(deps, {
    name: 'login',
    limit: config.rateLimitAuthPerMinute,
    windowSeconds: 60,
    keys: (req) => {
      const guess = (req.body as Record<string, unknown> | undefined)?.[field];
      return typeof guess === 'string' && guess !== '' ? [`ip:${req.ip}`, `email:${req.user!.email}`] : [];
    },
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
    const factor =
      'passkey' in body
        ? (await usePasskey(deps, rpOf(req), 'step-up', req.sessionId, req.user!.id, body.passkey)) ? ('passkey' as const) : null
        : await useSecondFactor(db, config, req.user!.id, body.code);
    if (!factor) throw badRequest('passkey' in body ? PASSKEY_WRONG : CODE_WRONG);
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

  router.post('/logout', async (req, res) => {
    await endSession(req, res, deps);
    res.json({ message: 'Logged out' });
  });

  router.get('/profile', requireUser, async (req, res) => {
    res.json(await users.getUserJson(db, req.user!.id));
  });

  // A new e-mail or password locks the owner out: with a second factor on, it needs one.
  const stepUpForCredentials: RequestHandler = (req, res, next) => {
    const body = req.body as { email?: unknown; password?: unknown } | undefined;
    const changesCredentials = (typeof body?.email === 'string' && body.email.trim().toLowerCase() !== req.user?.email) || (typeof body?.password === 'string' && body.password !== '');
    return changesCredentials ? requireStepUp(req, res, next) : next();
  };
  router.put('/profile', requireUser, passwordGuesses('currentPassword'), stepUpForCredentials, async (req, res) => {
    const input = parseBody(updateProfileBody, req.body);
    const { user, effects } = await users.updateProfile(db, { ...auditContext(req), userId: req.user!.id, sessionId: req.sessionId }, input);
    await handOnAfter(req, effects);
    res.json(user);
  });

  // An exchange cannot be undone: with a second factor on, it needs one in the last minutes.
  router.post('/exchange', requireUser, requireStepUp, async (req, res) => {
    await exchangeBalance(db, req.user!.id);
    const user = await users.getUserJson(db, req.user!.id);
    res.json({ message: 'Balance exchanged!', activeBalance: user.activeBalance, passiveBalance: user.passiveBalance });
  });

  // What a cashout to this wallet would do (the amount, whether the wallet is new and it
  // waits), for the page to show before the user confirms; nothing is written.
  router.post('/cashout/preview', requireUser, async (req, res) => {
    const { wallet } = parseBody(cashoutBody, req.body);
    const plan = await previewCashout(db, config, { userId: req.user!.id, wallet });
    const answer: CashoutPreviewJson = { amountUsd: usdNumber(plan.amount), wallet: plan.wallet, newWallet: plan.newWallet, holdUntil: plan.holdUntil?.toISOString() ?? null };
    res.json(answer);
  });

  // Money leaving the account: with a second factor on, one given for it, after sign-in.
  router.post('/cashout', requireUser, requireStepUpForMoneyOut, async (req, res) => {
    const { wallet } = parseBody(cashoutBody, req.body);
    // The price is recorded for the operator when the feed answers; a cashout does not wait for it.
    const price = await withTimeout(deps.prices.current(), 2_000).catch(() => undefined);
    const { effects } = await requestCashout(db, config, { userId: req.user!.id, wallet, ethUsd: price?.price });
    // Stored first, then the notices are queued; the sweeper re-queues them if this fails.
    await handOnAfter(req, effects);
    res.json(await users.getUserJson(db, req.user!.id));
  });

  // The link of the new-wallet e-mail (no session: the token is the owner's word). The
  // e-mail's link opens a page that asks first; this POST is what its button sends.
  router.post('/cashout/cancel', authLimit('cashout-cancel'), async (req, res) => {
    const { token } = parseBody(cancelCashoutBody, req.body);
    const outcome = await cancelByLink(db, auditContext(req, null), token);
    const answer: CashoutCancelJson = { ...outcome, returnedUsd: usdNumber(outcome.returnedUsd) };
    res.json(answer);
  });

  router.get('/profile/referrals', requireUser, async (req, res) => {
    const page = pageQuery(req);
    const rows = await users.referralsPage(db, req.user!.id, page);
    await sendPage(req, res, page, rows, byCreatedAt, (shown) => shown.map((r) => ({ _id: r.id, name: r.name })));
  });

  // Every user's e-mail, page after page: a second factor given in the last 10 minutes.
  router.get('/', requireAdmin, requireStepUp, async (req, res) => {
    const page = pageQuery(req);
    const rows = await users.usersPage(db, searchTerm(req), page);
    await sendPage(req, res, page, rows, byCreatedAt, users.userListJson);
  });

  router.get('/:id', requireAdmin, async (req, res) => {
    res.json(await users.getUserJson(db, parseId(req.params.id, 'User')));
  });

  router.put('/:id', requireAdmin, requireStepUp, async (req, res) => {
    const id = parseId(req.params.id, 'User');
    const input = parseBody(adminUpdateUserBody, req.body);
    const { user, effects } = await users.adminUpdateUser(db, config, signedInActor(req), id, input);
    await handOnAfter(req, effects);
    // 202: saved, but a large balance increase or admin rights wait for a second admin.
    res.status(user.pendingApproval || user.pendingAdminGrant ? 202 : 200).json(user);
  });

  router.delete('/:id', requireAdmin, requireStepUp, async (req, res) => {
    await users.adminDeleteUser(db, auditContext(req), parseId(req.params.id, 'User'));
    res.json({ message: 'User removed' });
  });

  return router;
}
