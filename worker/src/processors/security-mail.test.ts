import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { ParsedMail } from 'mailparser';
import { applyLedger, createRuntime, type Runtime } from '@shop/core';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../../api/src/testing/api-test-kit.ts';
import { waitFor } from '../../../scripts/testing/chain.ts';
import { freePort, startSmtpServer } from '../../../scripts/testing/smtp.ts';
import { SoftPasskey } from '../../../scripts/testing/soft-passkey.ts';
import { waitForQueueIdle } from '../../../scripts/testing/waits.ts';
import { startWorkers } from '../worker-manager.ts';
import { closeMailer, email } from './email.ts';
import { paymentSweep } from './payment-sweep.ts';

/**
 * Security e-mails (issue 36): the account's own address is told when a second factor is
 * added or removed, when the password or the e-mail address changes (the old address),
 * and when a cashout is asked for. Sent by the worker from what the change recorded.
 */
const ORIGIN = 'http://localhost:5173';
let kit: ApiTestKit;
let worker: Runtime;
let workers: ReturnType<typeof startWorkers>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  const port = await freePort();
  smtp = await startSmtpServer(port);
  kit = await createApiTestKit({ env: { SMTP_URL: smtp.url, PUBLIC_URL: ORIGIN } });
  worker = createRuntime(kit.env.config, 'worker');
  workers = startWorkers(worker, { email: { process: email }, 'payment-sweep': { process: paymentSweep } });
});
afterAll(async () => {
  await workers?.close();
  closeMailer();
  await worker?.close();
  await kit?.close();
  await smtp?.stop();
});

const recipients = (m: ParsedMail) => (m.to && 'text' in m.to ? m.to.text : '');
async function mailTo(address: string, subject: string): Promise<ParsedMail> {
  return waitFor(`'${subject}' to ${address}`, async () => smtp.messages.find((m) => recipients(m) === address && m.subject === subject));
}

/** A signed-in browser on ORIGIN (passkeys are bound to it). */
async function browser(user: TestUser) {
  const as = await kit.as(user);
  return {
    post: (path: string, body: object = {}) => as.post(path).set('Origin', ORIGIN).send(body),
    put: (path: string, body: object = {}) => as.put(path).set('Origin', ORIGIN).send(body),
    delete: (path: string) => as.delete(path).set('Origin', ORIGIN),
  };
}

describe('security e-mails', () => {
  it('a second factor added or removed: an authenticator app and a passkey', async () => {
    const user = await kit.createUser({ name: 'Sam Secure' });
    const b = await browser(user);
    const { secret } = (await b.post('/api/users/2fa/totp', { password: user.password })).body as { secret: string };
    const confirmed = await b.post('/api/users/2fa/totp/confirm', { code: await generate({ secret }) });
    expect(confirmed.status).toBe(200);
    const added = await mailTo(user.email, 'Two-factor sign-in: an authenticator app was added to your account');
    expect(added.text).toContain('Hello Sam Secure');
    expect(added.text).toContain(`${ORIGIN}/profile/security`);

    // The enrolling session has its step-up: a passkey goes on, then off, then the app.
    const options = await b.post('/api/users/2fa/passkeys/options', { password: user.password });
    const created = await b.post('/api/users/2fa/passkeys', { name: 'Work laptop', response: new SoftPasskey(ORIGIN).register(options.body) });
    expect(created.status).toBe(201);
    await mailTo(user.email, 'Two-factor sign-in: a passkey (Work laptop) was added to your account');
    expect((await b.delete(`/api/users/2fa/passkeys/${created.body.passkey._id}`)).status).toBe(200);
    await mailTo(user.email, 'Two-factor sign-in: a passkey (Work laptop) was removed from your account');
    expect((await b.post('/api/users/2fa/totp/disable', { code: confirmed.body.recoveryCodes[0] })).status).toBe(200);
    const removed = await mailTo(user.email, 'Two-factor sign-in: an authenticator app was removed from your account');
    expect(removed.text).toMatch(/If this was not you/);
  });

  it('a new password, and a new e-mail address (told to the old one)', async () => {
    const user = await kit.createUser({ name: 'Pat Password', password: 'pats-password' });
    const b = await browser(user);
    expect((await b.put('/api/users/profile', { password: 'pats-new-password', currentPassword: 'pats-password' })).status).toBe(200);
    await mailTo(user.email, 'The password of your account was changed');
    expect((await b.put('/api/users/profile', { email: 'pat.elsewhere@example.com', currentPassword: 'pats-new-password' })).status).toBe(200);
    const moved = await mailTo(user.email, 'The e-mail address of your account was changed');
    expect(moved.text).toContain('pat.elsewhere@example.com');
    // A name alone tells nobody anything: it records no notice (the outbox is written in the
    // change's own transaction), and once every e-mail job handed on has finished, two were sent.
    expect((await b.put('/api/users/profile', { name: 'Pat P' })).status).toBe(200);
    expect((await kit.db.securityNotice.findMany({ where: { userId: user.id } })).map((n) => n.kind).sort()).toEqual(['EMAIL_CHANGED', 'PASSWORD_CHANGED']);
    await waitForQueueIdle(worker.queues.email, 'the e-mail jobs to finish');
    expect(smtp.messages.filter((m) => [user.email, 'pat.elsewhere@example.com'].includes(recipients(m)))).toHaveLength(2);
  });

  it("an admin's new password or e-mail for a user is told to the user's address too", async () => {
    const admin = await kit.createUser({ isAdmin: true });
    const user = await kit.createUser({ name: 'Ada Admined' });
    const edit = (body: object) =>
      kit.as(admin).then((as) => as.put(`/api/users/${user.id}`).send({ name: user.name, email: user.email, isAdmin: false, activeBalance: '0.00', passiveBalance: '0.00', loadedActiveBalance: '0.00', loadedPassiveBalance: '0.00', ...body }));
    expect((await edit({ password: 'set-by-admin-1' })).status).toBe(200);
    await mailTo(user.email, 'The password of your account was changed');
    expect((await edit({ email: 'ada.new@example.com' })).status).toBe(200);
    expect((await mailTo(user.email, 'The e-mail address of your account was changed')).text).toContain('ada.new@example.com');
  });

  it('a cashout: the account is told of it, with the wallet and the amount', async () => {
    const user = await kit.createUser({ name: 'Cy Cashout' });
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '75.00', kind: 'DAILY_CREDIT', idempotencyKey: `seed:${user.id}` }]);
    const wallet = `0x${'71'.repeat(20)}`;
    expect((await (await kit.as(user)).post('/api/users/cashout').send({ wallet })).status).toBe(200);
    const told = await mailTo(user.email, 'Cashout of $75.00 to a new wallet');
    expect(told.text).toContain(wallet);
    expect(told.text).toMatch(/\/cashout\/cancel\?token=/);
  });

  it('a notice whose hand-off was lost (Redis down after the commit) is sent by the sweeper, once', async () => {
    const user = await kit.createUser({ name: 'Lou Lost' });
    const notice = await kit.db.securityNotice.create({
      data: { userId: user.id, kind: 'PASSWORD_CHANGED', email: user.email, createdAt: new Date(Date.now() - 5 * 60_000) },
    });
    await worker.queues['payment-sweep'].add('payment-sweep', {});
    await mailTo(user.email, 'The password of your account was changed');
    await waitFor('the notice marked sent', async () => (await kit.db.securityNotice.findUniqueOrThrow({ where: { id: notice.id } })).sentAt !== null);
    // Another sweep finds it sent: nothing more goes out.
    const again = await worker.queues['payment-sweep'].add('payment-sweep', {});
    const done = await waitFor('the second sweep to finish', async () => {
      const job = await worker.queues['payment-sweep'].getJob(again.id!);
      // Read again once completed: the copy read before may predate its return value.
      return (await job?.isCompleted()) ? worker.queues['payment-sweep'].getJob(again.id!) : null;
    });
    // What it hands on is not counted here: on a slow machine this file's earlier notices may be a minute old and
    // still unsent. Whatever it handed on has run once the e-mail queue is idle, and this user got one letter.
    expect(done.returnvalue).toHaveProperty('notices');
    await waitForQueueIdle(worker.queues.email, 'the e-mail jobs to finish');
    expect(smtp.messages.filter((m) => recipients(m) === user.email)).toHaveLength(1);
  });
});
