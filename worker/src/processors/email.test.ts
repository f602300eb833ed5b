import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, applyLedger, createRuntime, requestCashout, jobIds, jobs, Prisma, type Runtime } from '@shop/core';
import { orderReference } from '@shop/core/contract';
import { createApiTestKit, type ApiTestKit } from '../../../api/src/testing/api-test-kit.ts';
import { freePort, startSmtpServer } from '../../../scripts/testing/smtp.ts';
import { waitFor } from '../../../scripts/testing/chain.ts';
import { waitForJobDone } from '../../../scripts/testing/waits.ts';
import { startWorkers } from '../worker-manager.ts';
import { email, closeMailer } from './email.ts';

let kit: ApiTestKit;
let worker: Runtime;
let workers: ReturnType<typeof startWorkers>;
let smtpPort: number;

beforeAll(async () => {
  smtpPort = await freePort();
  // The receipt test makes a PAID order by hand (what is tested is the e-mail), with no
  // transfer behind it and no daily credit term: the reconciler checks everything else.
  kit = await createApiTestKit({
    // A staging shop: its e-mails name its network and link its explorer.
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, OPERATOR_EMAIL: 'ops@example.com', OPERATOR_NAME: 'Ops Team',
      PUBLIC_URL: 'https://shop.example.org', SHOP_NETWORK_LABEL: 'Sepolia staging', EXPLORER_URL: 'https://sepolia.etherscan.io',
    },
    reconcileSkip: ['paid-not-covered', 'paid-without-term'],
  });
  worker = createRuntime(kit.env.config, 'worker');
  workers = startWorkers(worker, { email: { process: email } });
});
afterAll(async () => {
  await workers?.close();
  closeMailer();
  await worker?.close();
  await kit?.close();
});

describe('e-mail', () => {
  it('SMTP down then up: the cashout notice arrives once, a letter to the operator naming who, how much, where and where to act', async () => {
    const user = await kit.createUser({ name: 'Carla Cash' });
    await applyLedger(kit.db, [{ userId: user.id, account: 'ACTIVE', amount: '42.50', kind: 'DAILY_CREDIT', idempotencyKey: `seed:${user.id}` }]);
    const wallet = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    const { cashoutId } = await requestCashout(kit.db, kit.env.config, { userId: user.id, wallet, ethUsd: '3000.00000000' });
    // Nothing listens on the SMTP port yet: the first attempt fails and is retried.
    await jobs.sendCashoutNotice(kit.env.runtime.queues, cashoutId, { backoff: { type: 'fixed', delay: 1_500 } });
    await waitFor('a failed first attempt', async () => ((await worker.queues.email.getJob(jobIds.cashoutNotice(cashoutId)))?.attemptsMade ?? 0) >= 1);
    const smtp = await startSmtpServer(smtpPort);
    try {
      await waitFor('the notice to arrive', async () => smtp.messages.length > 0);
      await waitFor('the cashout to be marked notified', async () => (await kit.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashoutId } })).status === 'NOTIFIED');
      await waitForJobDone(worker.queues.email, jobIds.cashoutNotice(cashoutId));
      expect(smtp.messages).toHaveLength(1);
      const mail = smtp.messages[0]!;
      expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('ops@example.com');
      // A letter, not a template's fields.
      expect(mail.text).not.toMatch(/to_name:|from_name:|message:/);
      expect(mail.text).toContain('Hello Ops Team,');
      expect(mail.text).toContain(`Carla Cash (${user.email}) asked for a cashout of $42.50 (about 0.014166 ETH at $3000.00/ETH).`);
      expect(mail.text).toContain(`Send it to this wallet on Sepolia staging:\n\n  ${wallet}`);
      expect(mail.text).toContain(`https://shop.example.org/admin/cashouts`);
      // Running the job again (the sweeper, a retry) sends nothing more.
      await (await worker.queues.email.getJob(jobIds.cashoutNotice(cashoutId)))?.remove();
      await jobs.sendCashoutNotice(kit.env.runtime.queues, cashoutId);
      await waitForJobDone(worker.queues.email, jobIds.cashoutNotice(cashoutId));
      expect(smtp.messages).toHaveLength(1);
    } finally {
      await smtp.stop();
    }
  });

  it('sends the buyer a receipt for a paid order, once: the network, the ETH paid, the transaction and a link to the receipt', async () => {
    const smtp = await startSmtpServer(smtpPort);
    try {
      const user = await kit.createUser({ name: 'Bea Buyer', email: 'bea@example.com' });
      const product = await createProduct(kit.db, { name: 'Gold Package', image: '/images/gold.svg', description: '', price: new Prisma.Decimal('25'), countInStock: 1 });
      const order = await kit.db.order.create({
        data: {
          userId: user.id, status: 'PAID', stockReserved: false, itemsPrice: new Prisma.Decimal('50'), totalPrice: new Prisma.Decimal('50'),
          paidAt: new Date('2026-05-01T00:00:00Z'), expiresAt: new Date('2026-05-31T00:00:00Z'),
          items: { create: [{ productId: product.id, name: 'Gold Package', image: '', price: new Prisma.Decimal('25'), qty: 2, dailyCredit: new Prisma.Decimal('1'), durationDays: 30 }] },
        },
      });
      // The transfer that paid it, as the e-mail reads it (no chain behind it: it leaves with the test).
      const txHash = `0x${'5e'.repeat(32)}`;
      const payment = await kit.db.payment.create({
        data: { orderId: order.id, txHash, source: 'INDEXED', status: 'COUNTED', amount: new Prisma.Decimal('16666666666666667'), usdValue: new Prisma.Decimal('50'), fromAddress: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' },
      });
      await jobs.sendReceipt(kit.env.runtime.queues, order.id);
      await waitFor('the receipt', async () => smtp.messages.length > 0);
      await waitForJobDone(worker.queues.email, jobIds.receipt(order.id));
      await (await worker.queues.email.getJob(jobIds.receipt(order.id)))?.remove();
      await jobs.sendReceipt(kit.env.runtime.queues, order.id);
      await waitForJobDone(worker.queues.email, jobIds.receipt(order.id));
      expect(smtp.messages).toHaveLength(1);
      const mail = smtp.messages[0]!;
      expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('bea@example.com');
      expect(mail.subject).toBe(`Payment received for order ${orderReference(order.id)}`);
      expect(mail.text).toContain('Gold Package: 2 x $25.00 = $50.00');
      expect(mail.text).toContain('2026-05-31');
      expect(mail.text).toContain(`was confirmed on Sepolia staging.`);
      expect(mail.text).toContain('Paid: 0.016666 ETH');
      expect(mail.text).toContain(`Transaction: ${txHash}\n  https://sepolia.etherscan.io/tx/${txHash}`);
      expect(mail.text).toContain(`Your receipt: https://shop.example.org/order/${order.id}`);
      await kit.db.payment.delete({ where: { id: payment.id } });
    } finally {
      await smtp.stop();
    }
  });

  it("writes the receipt in the buyer's language (User.locale): Azerbaijani and Russian, amounts and dates as the language writes them", async () => {
    const smtp = await startSmtpServer(smtpPort);
    try {
      const receiptTo = async (name: string, locale: string) => {
        const user = await kit.createUser({ name });
        await kit.db.user.update({ where: { id: user.id }, data: { locale } });
        const order = await paidOrder(user.id, 'Silver Package', '12.5', 2);
        await jobs.sendReceipt(kit.env.runtime.queues, order.id);
        await waitForJobDone(worker.queues.email, jobIds.receipt(order.id));
        const mail = await waitFor(`the ${locale} receipt`, async () => smtp.messages.find((m) => m.to && 'text' in m.to && m.to.text === user.email));
        return { mail, ref: orderReference(order.id), id: order.id };
      };
      const az = await receiptTo('Aysel Alıcı', 'az');
      expect(az.mail.subject).toBe(`${az.ref} nömrəli sifariş üçün ödəniş alındı`);
      expect(az.mail.text).toContain('Salam, Aysel Alıcı!');
      expect(az.mail.text).toContain(`${az.ref} nömrəli sifariş üçün ödənişiniz Sepolia staging şəbəkəsində təsdiqləndi.`);
      expect(az.mail.text).toMatch(/- Silver Package: 2 × 12,50\sUSD = 25,00\sUSD/);
      expect(az.mail.text).toMatch(/Cəmi: 25,00\sUSD/);
      expect(az.mail.text).toContain('Paketləriniz 31.05.2026 tarixinədək işləyir.');
      expect(az.mail.text).toContain(`Qəbziniz: https://shop.example.org/order/${az.id}`);

      const ru = await receiptTo('Ruslan Pokupatel', 'ru');
      expect(ru.mail.subject).toBe(`Оплата заказа ${ru.ref} получена`);
      expect(ru.mail.text).toContain('Здравствуйте, Ruslan Pokupatel!');
      expect(ru.mail.text).toContain(`Ваша оплата заказа ${ru.ref} подтверждена в сети Sepolia staging.`);
      expect(ru.mail.text).toMatch(/- Silver Package: 2 × 12,50\sUSD = 25,00\sUSD/);
      expect(ru.mail.text).toContain('Ваши пакеты действуют до 31.05.2026.');
      expect(ru.mail.text).toContain(`Ваш чек: https://shop.example.org/order/${ru.id}`);
    } finally {
      await smtp.stop();
    }
  });
});

/** A PAID order of `qty` of a new package at `price`, made by hand (no transfer behind it), running until 2026-05-31. */
async function paidOrder(userId: string, name: string, price: string, qty: number) {
  const product = await createProduct(kit.db, { name, image: '/images/silver.svg', description: '', price: new Prisma.Decimal(price), countInStock: qty });
  const total = new Prisma.Decimal(price).mul(qty);
  return kit.db.order.create({
    data: {
      userId, status: 'PAID', stockReserved: false, itemsPrice: total, totalPrice: total,
      paidAt: new Date('2026-05-01T00:00:00Z'), expiresAt: new Date('2026-05-31T00:00:00Z'),
      items: { create: [{ productId: product.id, name, image: '', price: new Prisma.Decimal(price), qty, dailyCredit: new Prisma.Decimal('1'), durationDays: 30 }] },
    },
  });
}
