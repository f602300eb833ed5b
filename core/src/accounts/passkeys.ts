import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { recordAudit, type AuditContext } from '../events/audit.ts';
import type { AppConfig } from '../infra/config.ts';
import type { PasskeyJson } from '../contract/users.ts';
import type { Db } from '../infra/db.ts';
import type { Effect } from '../infra/effects.ts';
import { badRequest, conflict, notFound, UserError } from '../infra/errors.ts';
import type { Redis } from '../infra/redis.ts';
import { issueRecoveryCodes, secondFactorOn } from './two-factor.ts';
import { noteSecurityChange } from './security-notices.ts';
import { markStepUp, revokeUserSessions } from './sessions.ts';

/**
 * Passkeys (WebAuthn, SimpleWebAuthn) as a second factor beside TOTP. The relying party
 * is the shop's PUBLIC_URL (required in production); a development shop without one
 * uses the origin the browser sent. Each ceremony's challenge is kept in Redis for five
 * minutes, for one purpose and one owner (the user registering or signing in, or the
 * session stepping up), and taken with GETDEL: it works once. The signature counter an
 * authenticator reports must grow (a cloned key shows up as a counter that does not).
 * User verification is not required: the passkey is the second factor after a password.
 */

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

export type RelyingParty = { id: string; name: string; origin: string };

const CHALLENGE_SECONDS = 300;
export const PASSKEY_WRONG = 'That passkey could not be checked. Try again, or use a code from your authenticator app or a recovery code.';

/** The site passkeys are bound to: PUBLIC_URL's origin, else (development) the request's. */
export function relyingParty(config: Pick<AppConfig, 'publicUrl'>, requestOrigin: string | undefined): RelyingParty {
  const raw = config.publicUrl ?? requestOrigin;
  let origin: URL;
  try {
    origin = new URL(raw ?? '');
  } catch {
    throw badRequest('Passkeys need the page\'s origin: open the shop in a browser.');
  }
  return { id: origin.hostname, name: 'ETH Shop', origin: origin.origin };
}

type Purpose = 'register' | 'login' | 'step-up';
type Deps = { db: Db; redis: Redis; config: AppConfig };

const challengeKey = (config: Pick<AppConfig, 'queuePrefix'>, purpose: Purpose, owner: string) => `${config.queuePrefix}:webauthn:${purpose}:${owner}`;

async function keepChallenge(deps: Deps, purpose: Purpose, owner: string, challenge: string): Promise<void> {
  await deps.redis.set(challengeKey(deps.config, purpose, owner), challenge, 'EX', CHALLENGE_SECONDS);
}

/** Ends a passkey set-up still pending for `userId` (its challenge): another factor was just added. */
export async function dropPasskeySetUp(deps: Pick<Deps, 'redis' | 'config'>, userId: string): Promise<void> {
  await deps.redis.del(challengeKey(deps.config, 'register', userId));
}

/** The challenge issued for this purpose and owner, taken (a second use finds none). */
function takeChallenge(deps: Deps, purpose: Purpose, owner: string): Promise<string | null> {
  return deps.redis.getdel(challengeKey(deps.config, purpose, owner));
}


export async function listPasskeys(db: Db, userId: string): Promise<PasskeyJson[]> {
  const rows = await db.passkey.findMany({ where: { userId }, orderBy: { createdAt: 'asc' }, select: { id: true, name: true, createdAt: true, lastUsedAt: true } });
  return rows.map((p) => ({ _id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null }));
}

/** Options for navigator.credentials.create(): the user's existing passkeys excluded. */
export async function passkeyRegistrationOptions(deps: Deps, rp: RelyingParty, userId: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true, passkeys: { select: { credentialId: true, transports: true } } } });
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(userId),
    attestationType: 'none',
    excludeCredentials: user.passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await keepChallenge(deps, 'register', userId, options.challenge);
  return options;
}

/**
 * Registers the passkey the browser created for the last options issued to this user.
 * The first second factor of the account also gives its recovery codes (shown once),
 * ends the user's other sessions and counts as a second factor given in this session.
 */
export async function registerPasskey(
  deps: Deps,
  rp: RelyingParty,
  audit: AuditContext,
  session: { userId: string; sessionId?: string },
  input: { name: string; response: RegistrationResponseJSON },
): Promise<{ passkey: PasskeyJson; recoveryCodes?: string[]; effects: Effect[] }> {
  const { userId, sessionId } = session;
  const expectedChallenge = await takeChallenge(deps, 'register', userId);
  if (!expectedChallenge) throw badRequest('This passkey set-up expired: start it again.');
  const verified = await verifyRegistrationResponse({ response: input.response, expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false }).catch(
    () => ({ verified: false as const }),
  );
  if (!verified.verified) throw badRequest('The passkey could not be registered: try again.');
  const { credential } = verified.registrationInfo;
  try {
    return await deps.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT "id" FROM "User" WHERE "id" = ${userId}::uuid FOR UPDATE`;
      const wasOn = await secondFactorOn(tx, userId);
      // A factor added ends any authenticator set-up still pending: a secret someone started
      // (with the session and the password) must not turn on later beside it.
      await tx.user.updateMany({ where: { id: userId, totpEnabledAt: null, totpSecret: { not: null } }, data: { totpSecret: null } });
      const row = await tx.passkey.create({
        data: { userId, credentialId: credential.id, publicKey: Buffer.from(credential.publicKey), counter: BigInt(credential.counter), transports: credential.transports ?? [], name: input.name },
      });
      let recoveryCodes: string[] | undefined;
      if (!wasOn) {
        recoveryCodes = await issueRecoveryCodes(tx, deps.config, userId);
        await revokeUserSessions(tx, userId, { except: sessionId });
        if (sessionId) await markStepUp(tx, sessionId);
      }
      await recordAudit(tx, audit, { action: '2fa.passkey_added', subject: { type: 'user', id: userId }, after: { passkey: row.id, name: row.name } });
      const passkey: PasskeyJson = { _id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: null };
      const effects = [await noteSecurityChange(tx, { kind: 'FACTOR_ADDED', userId, factor: 'passkey', name: row.name })];
      return recoveryCodes ? { passkey, recoveryCodes, effects } : { passkey, effects };
    });
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err as { code: unknown }).code === 'P2002') throw conflict('This passkey is registered already.');
    throw err;
  }
}

/**
 * Options for navigator.credentials.get() with the user's passkeys, the challenge kept for
 * `purpose` and `owner` (a sign-in: the user whose password was right; a step-up: the
 * session). Null when the user has no passkey.
 */
export async function passkeyAssertionOptions(
  deps: Deps,
  rp: () => RelyingParty,
  purpose: 'login' | 'step-up',
  owner: string,
  userId: string,
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const passkeys = await deps.db.passkey.findMany({ where: { userId }, select: { credentialId: true, transports: true } });
  if (passkeys.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: rp().id,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
    userVerification: 'preferred',
  });
  await keepChallenge(deps, purpose, owner, options.challenge);
  return options;
}

/**
 * Checks a passkey assertion of `userId` against the challenge issued for `purpose` and
 * `owner` (taken, so it works once), and moves the passkey's counter forward in one
 * conditional UPDATE (two requests with one assertion cannot both pass). True when it
 * is the user's own passkey and the signature is good.
 */
export async function usePasskey(deps: Deps, rp: RelyingParty, purpose: 'login' | 'step-up', owner: string, userId: string, response: AuthenticationResponseJSON): Promise<boolean> {
  const expectedChallenge = await takeChallenge(deps, purpose, owner);
  if (!expectedChallenge || typeof response?.id !== 'string') return false;
  const passkey = await deps.db.passkey.findFirst({ where: { credentialId: response.id, userId } });
  if (!passkey) return false;
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: Number(passkey.counter), transports: passkey.transports },
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified) return false;
  const counter = BigInt(result.authenticationInfo.newCounter);
  // Authenticators without a counter report 0 every time; one that counts must count up.
  const moved = await deps.db.$executeRaw`
    UPDATE "Passkey" SET "counter" = ${counter}, "lastUsedAt" = now()
    WHERE "id" = ${passkey.id}::uuid AND "counter" = ${passkey.counter} AND (${counter} = 0 OR ${counter} > "counter")`;
  return moved === 1;
}

/** Removes one of the user's passkeys (a step-up is asked for by the route) and ends the user's other sessions; recovery codes go with the last second factor; the owner is e-mailed. */
export async function removePasskey(deps: Pick<Deps, 'db' | 'config'>, audit: AuditContext, userId: string, passkeyId: string, opts: { keepOneFactor: boolean; sessionId?: string }): Promise<Effect[]> {
  return deps.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "User" WHERE "id" = ${userId}::uuid FOR UPDATE`;
    const row = await tx.passkey.findFirst({ where: { id: passkeyId, userId } });
    if (!row) throw notFound('Passkey not found');
    await tx.passkey.delete({ where: { id: row.id } });
    const stillOn = await secondFactorOn(tx, userId);
    if (!stillOn && opts.keepOneFactor) throw new UserError(400, 'Admins of this shop must keep a second factor: add another passkey or an authenticator app first.');
    if (!stillOn) await tx.recoveryCode.deleteMany({ where: { userId } });
    // A session a thief opened with a passkey they planted ends with it.
    await revokeUserSessions(tx, userId, { except: opts.sessionId });
    await recordAudit(tx, audit, { action: '2fa.passkey_removed', subject: { type: 'user', id: userId }, before: { passkey: row.id, name: row.name } });
    return [await noteSecurityChange(tx, { kind: 'FACTOR_REMOVED', userId, factor: 'passkey', name: row.name })];
  });
}
