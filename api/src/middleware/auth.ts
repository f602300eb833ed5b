import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { SignJWT, jwtVerify } from 'jose';
import { createSession, createSessionReader, revokeSession, type AppConfig, type Db } from '@shop/core';
import type { AppDeps } from '../deps.ts';
import { forbidden, unauthorized, UserError } from '@shop/core';

/** What an admin who must turn on two-factor sign-in hears from every admin call. */
export const TWO_FACTOR_ENROL = 'Turn on two-factor sign-in (Profile > Security) before using the admin pages.';

export const SESSION_COOKIE = 'jwt';

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  /** Admin rights in effect: false for an admin who must still turn on two-factor sign-in (`mustEnrol`). */
  isAdmin: boolean;
  /** A second factor is on (TOTP). */
  twoFactor: boolean;
  /** An admin of a shop that requires two-factor sign-in (ADMIN_2FA_REQUIRED) who has not turned it on: no admin call works yet. */
  mustEnrol: boolean;
  /** When this session last had a second factor (sign-in with a code, or a step-up). */
  stepUpAt: Date | null;
  /** When this session was opened (signed in). */
  signedInAt: Date;
};

declare module 'express-serve-static-core' {
  interface Request {
    user?: SessionUser;
    /** The server-side session this request is signed in with. */
    sessionId?: string;
  }
}

/**
 * The token's HMAC key, imported once per secret (jose would import a raw secret again on
 * every verification).
 */
const verifyKeys = new Map<string, Promise<CryptoKey>>();
function verifyKey(config: AppConfig): Promise<CryptoKey> {
  let key = verifyKeys.get(config.jwtSecret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(config.jwtSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    verifyKeys.set(config.jwtSecret, key);
  }
  return key;
}

function cookieOptions(config: AppConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, path: '/' };
}

/** The token of session `sessionId` of `userId`, valid until `expiresAt`. */
export function signSessionToken(jwtSecret: string, userId: string, sessionId: string, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(new TextEncoder().encode(jwtSecret));
}

type SessionDeps = { config: AppConfig; db: Db };

/** A new server-side session for `userId` and its signed token (`stepUp`: opened with a second factor). */
export async function openSession({ config, db }: SessionDeps, userId: string, opts: { stepUp?: boolean } = {}): Promise<{ token: string; expiresAt: Date; cookie: string }> {
  const session = await createSession(db, userId, config.sessionDays, new Date(), opts);
  const token = await signSessionToken(config.jwtSecret, userId, session.id, session.expiresAt);
  return { token, expiresAt: session.expiresAt, cookie: `${SESSION_COOKIE}=${token}` };
}

/** Opens a server-side session for `userId` and sets its cookie. */
export async function startSession(res: Response, deps: SessionDeps, userId: string, opts: { stepUp?: boolean } = {}): Promise<void> {
  const { token, expiresAt } = await openSession(deps, userId, opts);
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(deps.config), expires: expiresAt });
}

/** Ends this request's session on the server and clears its cookie. */
export async function endSession(req: Request, res: Response, { config, db }: SessionDeps): Promise<void> {
  if (req.sessionId) await revokeSession(db, req.sessionId);
  clearSessionCookie(res, config);
}

export function clearSessionCookie(res: Response, config: AppConfig): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(config));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads the session cookie and loads its session and user from the database on every
 * request (sessions arriving together in one query: createSessionReader), so logging out,
 * revoked sessions, admin rights and deletion take effect at once, whatever the token says.
 */
export function loadSession({ config, db }: AppDeps, opts: { guestWhenUnavailable?: boolean } = {}): RequestHandler {
  const sessions = createSessionReader(db);
  return async (req, res, next) => {
    const token = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    if (typeof token !== 'string' || token.length > 2000) return next();
    let userId: unknown;
    let sessionId: unknown;
    try {
      const { payload } = await jwtVerify(token, await verifyKey(config), { algorithms: ['HS256'] });
      userId = payload.sub;
      sessionId = payload.sid;
    } catch {
      clearSessionCookie(res, config);
      return next();
    }
    const lookup =
      typeof userId === 'string' && typeof sessionId === 'string' && UUID.test(userId) && UUID.test(sessionId)
        ? sessions.find(sessionId, userId)
        : Promise.resolve(null);
    // Health answers even while the database is down: its reader is then a guest.
    const user = opts.guestWhenUnavailable ? await lookup.catch(() => undefined) : await lookup;
    if (user === undefined) return next();
    if (user) {
      // An admin who must turn on two-factor sign-in has no admin rights until it is on:
      // every check of `isAdmin` (routes, the queue dashboard, order reads) sees a user.
      const mustEnrol = user.isAdmin && config.admin2faRequired && !user.twoFactor;
      req.user = { ...user, isAdmin: user.isAdmin && !mustEnrol, mustEnrol };
      req.sessionId = sessionId as string;
    } else {
      clearSessionCookie(res, config);
    }
    next();
  };
}

export const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(unauthorized());
  next();
};

export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(unauthorized());
  if (req.user.mustEnrol) return next(new UserError(403, TWO_FACTOR_ENROL, undefined, { twoFactorEnrolment: true }));
  if (!req.user.isAdmin) return next(forbidden('Not authorized as an admin'));
  next();
};

/** How long a second factor given in a session covers money actions. */
export const STEP_UP_MS = 10 * 60_000;
export const STEP_UP_NEEDED = 'Confirm it is you: enter a code from your authenticator app.';

/**
 * Money actions (balance edits, payouts marked paid, refunds, cashout rejections, role
 * changes, webhook secrets): a user with a second factor must have given one in this
 * session in the last STEP_UP_MS, or gets 403 `{ stepUpRequired: true }` (the web asks
 * for a code in place and sends the request again). Without a second factor (an admin
 * of a development shop), nothing more is asked.
 */
export const requireStepUp: RequestHandler = stepUpGuard({ afterSignIn: false });

/**
 * Money leaving a user's account (a cashout): as requireStepUp, but the code or passkey
 * given to sign in does not count. Whoever holds a session's cookie in the minutes after
 * its sign-in (a stolen cookie, a borrowed laptop) must still not send the balance out
 * without the owner's device: the factor must be given again, after signing in.
 */
export const requireStepUpForMoneyOut: RequestHandler = stepUpGuard({ afterSignIn: true });

function stepUpGuard(opts: { afterSignIn: boolean }): RequestHandler {
  return (req, _res, next) => {
    const user = req.user;
    if (!user) return next(unauthorized());
    if (!user.twoFactor) return next();
    const at = user.stepUpAt;
    const fresh = at !== null && Date.now() - at.getTime() < STEP_UP_MS;
    // A factor given at sign-in is stamped with the session's own opening time.
    if (fresh && (!opts.afterSignIn || at.getTime() > user.signedInAt.getTime())) return next();
    next(new UserError(403, STEP_UP_NEEDED, undefined, { stepUpRequired: true }));
  };
}
