import type { Request } from 'express';
import { handOn, type Effect } from '@shop/core';
import type { AppDeps } from '../deps.ts';
import { rateLimit, spendAttempt } from './rate-limit.ts';

/**
 * What the account routes share (modules sign-in, two-factor, profile, balances,
 * admin-users): the budgets of guesses at a password or a code, which hold per account
 * whichever route spends them (one Redis counter per budget and key), and the hand-off of
 * the e-mails a change sets off.
 */

/** Second-factor codes tried per account in 15 minutes (sign-in, step-up, enrolment, turning off). */
export const SECOND_FACTOR_ATTEMPTS = 10;

export function accountGuards(deps: AppDeps) {
  const { config } = deps;
  const emailOf = (body: unknown) => {
    const email = (body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' ? `email:${email.trim().toLowerCase()}` : undefined;
  };
  /** Sign-in and its kin: RATE_LIMIT_AUTH_PER_MINUTE per client address and per e-mail named. */
  const authLimit = (name: string) =>
    rateLimit(deps, {
      name,
      limit: config.rateLimitAuthPerMinute,
      windowSeconds: 60,
      keys: (req) => [`ip:${req.ip}`, emailOf(req.body)],
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

  // What a committed change sets off (security e-mails, the operator's notice): a failed
  // hand-off is logged, and the sweeper hands it on later.
  const handOnAfter = (req: Request, effects: Effect[]) =>
    handOn(deps.queues, effects, (err, effect) => req.log.warn({ err, effect: effect.kind }, 'e-mail not queued; the sweeper will retry'));

  return { authLimit, codeAttempts, spendSignInCode, passwordGuesses, handOnAfter };
}
