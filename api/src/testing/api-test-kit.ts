import request from 'supertest';
import { createApp } from '../app.ts';
import { openSession } from '../middleware/auth.ts';
import { createTestEnv, type TestEnv } from '../../../scripts/testing/test-env.ts';
import { closeProvingBooks, userMaker, type KitOptions } from '../../../scripts/testing/core-kit.ts';

export type { TestUser } from '../../../scripts/testing/core-kit.ts';

/**
 * One isolated api for a test file (own database, Redis prefix and, on request, anvil),
 * plus helpers to make users and requests as guest, user or admin.
 */
export async function createApiTestKit(opts: KitOptions = {}) {
  const env: TestEnv = await createTestEnv(opts);
  const app = createApp(env.runtime);
  const createUser = userMaker(env.runtime.db);

  /** A new session's cookie (`stepUp`: opened with a second factor, as a sign-in with a code is). */
  async function cookieFor(user: { id: string }, opts: { stepUp?: boolean } = {}): Promise<string> {
    return (await openSession(env.runtime, user.id, opts)).cookie;
  }

  /** A supertest request, as a guest (no user) or signed in as `user` (in a new session; `stepUp`: a second factor given in it just now). */
  async function as(user: { id: string } | null, opts: { stepUp?: boolean } = {}) {
    const cookie = user ? await cookieFor(user, opts) : undefined;
    const wrap = (method: 'get' | 'post' | 'put' | 'delete' | 'patch', path: string) => {
      const r = request(app)[method](path);
      return cookie ? r.set('Cookie', cookie) : r;
    };
    return {
      get: (path: string) => wrap('get', path),
      post: (path: string) => wrap('post', path),
      put: (path: string) => wrap('put', path),
      delete: (path: string) => wrap('delete', path),
      patch: (path: string) => wrap('patch', path),
    };
  }

  return {
    env,
    app,
    db: env.runtime.db,
    createUser,
    cookieFor,
    as,
    /** Proves the books (the reconciler finds nothing), then drops the test's world. */
    close: () => closeProvingBooks(env, opts),
  };
}

export type ApiTestKit = Awaited<ReturnType<typeof createApiTestKit>>;
