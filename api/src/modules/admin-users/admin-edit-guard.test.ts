import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiTestKit, type ApiTestKit } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
beforeAll(async () => {
  kit = await createApiTestKit();
});
afterAll(async () => {
  await kit?.close();
});

it("an admin's user edit without the balances its form showed is a 400 that says what to send and why", async () => {
  const admin = await kit.createUser({ isAdmin: true });
  const target = await kit.createUser();
  const asAdmin = await kit.as(admin);
  // An older form (or a script written from DESIGN.md) sends the balances without the guard's fields.
  const res = await asAdmin.put(`/api/users/${target.id}`).send({ name: target.name, email: target.email, isAdmin: false, activeBalance: 50, passiveBalance: 0 });
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(
    'Loaded active balance is missing: send loadedActiveBalance and loadedPassiveBalance, the balances your form was loaded with, so a balance that changed since is not overwritten. Reload the user and save again.',
  );
  const stored = await kit.db.user.findUniqueOrThrow({ where: { id: target.id } });
  expect(stored.activeBalance.toFixed(2)).toBe('0.00');
});
