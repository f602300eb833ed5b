import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { SignJWT, jwtVerify } from 'jose';
import { createSession, findSessionUser, revokeSession, type AppConfig, type Db } from '@shop/core';
import type { AppDeps } from '../deps.ts';
import { forbidden, unauthorized } from '@shop/core';

export const SESSION_COOKIE = 'jwt';

export type SessionUser = { id: string; name: string; email: string; isAdmin: boolean };

declare module 'express-serve-static-core' {
  interface Request {
    user?: SessionUser;
    /** The server-side session this request is signed in with. */
    sessionId?: string;
  }
}

const key = (config: AppConfig) => new TextEncoder().encode(config.jwtSecret);

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

/** A new server-side session for `userId` and its signed token. */
export async function openSession({ config, db }: SessionDeps, userId: string): Promise<{ token: string; expiresAt: Date; cookie: string }> {
  const session = await createSession(db, userId, config.sessionDays);
  const token = await signSessionToken(config.jwtSecret, userId, session.id, session.expiresAt);
  return { token, expiresAt: session.expiresAt, cookie: `${SESSION_COOKIE}=${token}` };
}

/** Opens a server-side session for `userId` and sets its cookie. */
export async function startSession(res: Response, deps: SessionDeps, userId: string): Promise<void> {
  const { token, expiresAt } = await openSession(deps, userId);
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
 * request (one query), so logging out, revoked sessions, admin rights and deletion take
 * effect at once, whatever the token says.
 */
export function loadSession({ config, db }: AppDeps, opts: { guestWhenUnavailable?: boolean } = {}): RequestHandler {
  return async (req, res, next) => {
    const token = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    if (typeof token !== 'string' || token.length > 2000) return next();
    let userId: unknown;
    let sessionId: unknown;
    try {
      const { payload } = await jwtVerify(token, key(config), { algorithms: ['HS256'] });
      userId = payload.sub;
      sessionId = payload.sid;
    } catch {
      clearSessionCookie(res, config);
      return next();
    }
    const lookup =
      typeof userId === 'string' && typeof sessionId === 'string' && UUID.test(userId) && UUID.test(sessionId)
        ? findSessionUser(db, sessionId, userId)
        : Promise.resolve(null);
    // Health answers even while the database is down: its reader is then a guest.
    const user = opts.guestWhenUnavailable ? await lookup.catch(() => undefined) : await lookup;
    if (user === undefined) return next();
    if (user) {
      req.user = user;
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
  if (!req.user.isAdmin) return next(forbidden('Not authorized as an admin'));
  next();
};
