import type { CookieOptions, RequestHandler, Response } from 'express';
import { SignJWT, jwtVerify } from 'jose';
import type { AppConfig } from '@shop/core';
import type { AppDeps } from '../deps.ts';
import { forbidden, unauthorized } from '../errors.ts';

export const SESSION_COOKIE = 'jwt';

export type SessionUser = { id: string; name: string; email: string; isAdmin: boolean };

declare module 'express-serve-static-core' {
  interface Request {
    user?: SessionUser;
  }
}

const key = (config: AppConfig) => new TextEncoder().encode(config.jwtSecret);

function cookieOptions(config: AppConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: config.cookieSecure, path: '/' };
}

/** The session token for `userId`, valid for `expiresIn` (a jose duration such as '30d'). */
export function signSessionToken(jwtSecret: string, userId: string, expiresIn: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(jwtSecret));
}

export async function setSessionCookie(res: Response, config: AppConfig, userId: string): Promise<void> {
  const token = await signSessionToken(config.jwtSecret, userId, `${config.sessionDays}d`);
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(config), maxAge: config.sessionDays * 24 * 3600 * 1000 });
}

export function clearSessionCookie(res: Response, config: AppConfig): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(config));
}

/**
 * Reads the session cookie and loads the user from the database on every request, so
 * admin rights (and deletion) take effect at once, whatever the token says.
 */
export function loadSession({ config, db }: AppDeps): RequestHandler {
  return async (req, res, next) => {
    const token = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    if (typeof token !== 'string' || token.length > 2000) return next();
    let userId: string | undefined;
    try {
      const { payload } = await jwtVerify(token, key(config), { algorithms: ['HS256'] });
      userId = typeof payload.sub === 'string' ? payload.sub : undefined;
    } catch {
      clearSessionCookie(res, config);
      return next();
    }
    if (!userId || !/^[0-9a-f-]{36}$/i.test(userId)) return next();
    const user = await db.user.findFirst({
      where: { id: userId, deletedAt: null },
      select: { id: true, name: true, email: true, isAdmin: true },
    });
    if (user) req.user = user;
    else clearSessionCookie(res, config);
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
