import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { jobIds, jobs } from '@shop/core';
import { ANVIL_ACCOUNTS, waitFor } from '../../../scripts/testing/chain.ts';
import { freePort, startSmtpServer } from '../../../scripts/testing/smtp.ts';
import { waitForJobDone } from '../../../scripts/testing/waits.ts';
import { createPaymentKit, type PaymentKit } from '../testing/payment-kit.ts';

/**
 * The account's letters (issue 40): a new account is welcomed, and a referrer hears of
 * each reward credited to them. Each is noted in the same transaction as the account or
 * the credit (the outbox), and the worker sends it once, through a real SMTP server.
 */
const SITE = 'https://shop.example.org';
let kit: PaymentKit;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer(await freePort());
  kit = await createPaymentKit({ env: { SMTP_URL: smtp.url, PUBLIC_URL: SITE } });
});
afterAll(async () => {
  await kit?.close();
  await smtp?.stop();
});

const recipients = (m: ParsedMail) => (m.to && 'text' in m.to ? m.to.text : '');
const mailsTo = (address: string, subject: string) => smtp.messages.filter((m) => recipients(m) === address && m.subject === subject);
const mailTo = (address: string, subject: string) => waitFor(`'${subject}' to ${address}`, async () => mailsTo(address, subject)[0]);

describe('account letters', () => {
  it('welcomes a new account once, with its referral code; the referrer hears of the reward for the referred buyer\'s paid order, once', async () => {
    const referrer = await kit.createUser({ name: 'Rita Referrer', email: 'rita@example.com' });
    const { referralCode } = await kit.db.user.findUniqueOrThrow({ where: { id: referrer.id } });

    const registered = await (await kit.as(null)).post('/api/users').send({ name: 'Nina New', email: 'nina@example.com', password: 'nina-password-1', referredBy: referralCode });
    expect(registered.status).toBe(201);
    const nina = await kit.db.user.findUniqueOrThrow({ where: { email: 'nina@example.com' } });
    const welcome = await mailTo('nina@example.com', 'Welcome to ETH Shop');
    expect(welcome.text).toContain('Hello Nina New,');
    expect(welcome.text).toContain(`Your referral code is ${nina.referralCode}.`);
    expect(welcome.text).toContain(`${SITE}/profile`);

    // Nina pays an order of $25.00: Rita is credited 10% of it, and told.
    const order = await kit.placeOrder({ ...nina, password: 'nina-password-1' });
    await kit.chain.sendAndWait(ANVIL_ACCOUNTS[4], kit.receiving, order.amountWei);
    await kit.runIndexer();
    await kit.waitForStatus(order.id, 'PAID');
    const reward = await mailTo('rita@example.com', 'You earned a referral reward of $2.50');
    expect(reward.text).toContain('Hello Rita Referrer,');
    expect(reward.text).toContain('$2.50 (10% of it) was added to your active balance');
    expect(reward.text).toContain(`${SITE}/profile`);

    // Each was noted once and is marked sent (the worker marks it once the SMTP server has
    // taken it, a moment after the letter arrives): running their jobs again sends nothing more.
    const notices = await waitFor('both letters marked sent', async () => {
      const rows = await kit.db.securityNotice.findMany({ where: { userId: { in: [referrer.id, nina.id] } }, orderBy: { createdAt: 'asc' } });
      return rows.length === 2 && rows.every((n) => n.sentAt !== null) ? rows : undefined;
    });
    expect(notices.map((n) => n.kind)).toEqual(['WELCOME', 'REFERRAL_REWARD']);
    const queue = kit.workerRuntime.queues.email;
    for (const n of notices) {
      await (await queue.getJob(jobIds.securityNotice(n.id)))?.remove();
      await jobs.sendSecurityNotice(kit.env.runtime.queues, n.id);
      await waitForJobDone(queue, jobIds.securityNotice(n.id));
    }
    expect(mailsTo('nina@example.com', 'Welcome to ETH Shop')).toHaveLength(1);
    expect(mailsTo('rita@example.com', 'You earned a referral reward of $2.50')).toHaveLength(1);
  });

  it('writes the welcome in the language the account was registered in: Azerbaijani, Russian; English when none', async () => {
    const guest = await kit.as(null);
    const register = (name: string, email: string, language: string) =>
      guest.post('/api/users').set('Accept-Language', language).send({ name, email, password: `${email}-password-1` });
    expect((await register('Aysel Azeri', 'aysel@example.com', 'az')).status).toBe(201);
    expect((await register('Rustam Russky', 'rustam@example.com', 'ru-RU,ru;q=0.9')).status).toBe(201);
    expect((await register('Erin English', 'erin@example.com', 'de')).status).toBe(201);
    const code = async (email: string) => (await kit.db.user.findUniqueOrThrow({ where: { email } })).referralCode;

    const az = await mailTo('aysel@example.com', 'ETH Shop-a xoş gəlmisiniz');
    expect(az.text).toContain('Salam, Aysel Azeri!');
    expect(az.text).toContain(`Referal kodunuz: ${await code('aysel@example.com')}.`);
    expect(az.text).toContain(`Hesabınız hazırdır. ${SITE}/ ünvanında paket seçin`);
    const ru = await mailTo('rustam@example.com', 'Добро пожаловать в ETH Shop');
    expect(ru.text).toContain('Здравствуйте, Rustam Russky!');
    expect(ru.text).toContain(`Ваш реферальный код: ${await code('rustam@example.com')}.`);
    expect(ru.text).toContain('10% от каждого оплаченного им заказа');
    const en = await mailTo('erin@example.com', 'Welcome to ETH Shop');
    expect(en.text).toContain('Hello Erin English,');
    expect(en.text).toContain('Whoever registers with it earns you 10% of each order they pay, added to your active balance.');
  });
});
