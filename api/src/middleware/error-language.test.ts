import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { LOCALE_COOKIE } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../testing/api-test-kit.ts';

/**
 * The api's errors in the request's language (issue 41): the error handler translates the
 * message and the fields' problems with requestLocale (the cookie, then Accept-Language);
 * English stays exactly as it was, and what the catalogues lack goes out in English.
 */
let kit: ApiTestKit;
let alice: TestUser;

beforeAll(async () => {
  kit = await createApiTestKit();
  alice = await kit.createUser({ name: 'Alice' });
});
afterAll(async () => {
  await kit?.close();
});

const badLogin = (headers: Record<string, string>) => request(kit.app).post('/api/users/login').set(headers).send({ email: alice.email, password: 'wrong-password' });

describe('errors in the request language', () => {
  it('a bad login: Russian for Accept-Language ru, the exact English for en and for a language the shop does not speak', async () => {
    const ru = await badLogin({ 'Accept-Language': 'ru' });
    expect(ru.status).toBe(401);
    expect(ru.body).toEqual({ message: 'Неверный адрес электронной почты или пароль' });
    const en = await badLogin({ 'Accept-Language': 'en' });
    expect(en.status).toBe(401);
    expect(en.body).toEqual({ message: 'Invalid email or password' });
    expect((await badLogin({ 'Accept-Language': 'de-DE,de;q=0.9' })).body.message).toBe('Invalid email or password');
    // The language cookie (the footer's switch) comes before the browser's list.
    expect((await badLogin({ 'Accept-Language': 'ru', Cookie: `${LOCALE_COOKIE}=az` })).body.message).toBe('E-poçt və ya parol yanlışdır');
  });

  it("a form's field: the message and each field's problem, in Azerbaijani; the English unchanged", async () => {
    const body = { name: 'Short', email: 'short@example.com', password: 'short' };
    const az = await request(kit.app).post('/api/users').set('Accept-Language', 'az').send(body);
    expect(az.status).toBe(400);
    expect(az.body.message).toBe('Parol: ən azı 8 simvol olmalıdır');
    expect(az.body.errors).toEqual([{ path: 'password', message: 'ən azı 8 simvol olmalıdır' }]);
    const en = await request(kit.app).post('/api/users').set('Accept-Language', 'en').send(body);
    expect(en.body.message).toBe('Password must be at least 8 characters');
    expect(en.body.errors).toEqual([{ path: 'password', message: 'must be at least 8 characters' }]);
  });

  it('a 404 by its template, and a route id that is no id', async () => {
    const missing = await request(kit.app).get('/api/nothing-here').set('Accept-Language', 'ru');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Не найдено: GET /api/nothing-here');
    const order = await (await kit.as(alice)).get('/api/orders/not-a-uuid').set('Accept-Language', 'az');
    expect(order.status).toBe(404);
    expect(order.body.message).toBe('Sifariş tapılmadı');
  });
});
