import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createApiTestKit, type ApiTestKit } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;

beforeAll(async () => {
  kit = await createApiTestKit();
});
afterAll(async () => {
  await kit?.close();
});

const cookies = (res: request.Response) => (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
const localeCookie = (res: request.Response) => cookies(res).find((c) => c.startsWith('shop_locale='));

describe("a user's language", () => {
  it('is the one they register in, kept on the account, changed by the switch and brought to a new browser by signing in', async () => {
    const registered = await request(kit.app)
      .post('/api/users')
      .set('Cookie', 'shop_locale=az')
      .send({ email: 'aysel@example.com', password: 'hunter22', name: 'Aysel' });
    expect(registered.status).toBe(201);
    expect((await kit.db.user.findUniqueOrThrow({ where: { email: 'aysel@example.com' } })).locale).toBe('az');

    const session = cookies(registered).find((c) => c.startsWith('jwt='))!.split(';')[0]!;
    const changed = await request(kit.app).put('/api/users/profile/locale').set('Cookie', session).send({ locale: 'ru' });
    expect(changed.status).toBe(200);
    expect(localeCookie(changed)).toMatch(/^shop_locale=ru;.*Path=\//);
    expect(localeCookie(changed)).not.toMatch(/HttpOnly/);
    expect((await kit.db.user.findUniqueOrThrow({ where: { email: 'aysel@example.com' } })).locale).toBe('ru');

    // Another browser, which asks for English: signing in brings the account's Russian.
    const login = await request(kit.app).post('/api/users/login').set('Accept-Language', 'en').send({ email: 'aysel@example.com', password: 'hunter22' });
    expect(login.status).toBe(200);
    expect(localeCookie(login)).toMatch(/^shop_locale=ru;/);
  });

  it('registers in the browser\'s language without a choice, and refuses a language the shop does not speak', async () => {
    const registered = await request(kit.app).post('/api/users').set('Accept-Language', 'ru-RU,ru;q=0.9').send({ email: 'ivan@example.com', password: 'hunter22', name: 'Ivan' });
    expect((await kit.db.user.findUniqueOrThrow({ where: { email: 'ivan@example.com' } })).locale).toBe('ru');
    const session = cookies(registered).find((c) => c.startsWith('jwt='))!.split(';')[0]!;
    const bad = await request(kit.app).put('/api/users/profile/locale').set('Cookie', session).send({ locale: 'fr' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Locale: .*"en"\|"az"\|"ru"/);
    expect((await kit.db.user.findUniqueOrThrow({ where: { email: 'ivan@example.com' } })).locale).toBe('ru');
    // Signed out: no account to keep it on.
    expect((await request(kit.app).put('/api/users/profile/locale').send({ locale: 'az' })).status).toBe(401);
  });
});
