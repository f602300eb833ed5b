import { createMailer, forgetResetToken, resetMail, type Mailer, type Runtime } from '@shop/core';
import { centsToString, explorerTxUrl, orderReference, toCents, usdToEth } from '@shop/core/contract';
import type { JobPayload, Logger } from '@shop/core';
import type { Processor } from '../worker-manager.ts';
import { mailFor, operatorMail, type MailWords } from '../mail/index.ts';
import { securityMail } from './security-mail.ts';

let mailer: Mailer | undefined;
const mailerFor = (runtime: Runtime) => (mailer ??= createMailer(runtime.config));

export function closeMailer(): void {
  mailer?.close();
  mailer = undefined;
}

/**
 * E-mail jobs: the buyer's receipt for a paid order, the operator's letter about a cashout
 * request (who asked, how much, the wallet and where to act), the notices of a
 * verified payout, the password-reset mails and the security notices (security-mail.ts),
 * each in the recipient's language (User.locale, read with the user: ../mail). A failure
 * throws, so BullMQ retries with backoff and, in the end, keeps the job visible as
 * failed in the queue dashboard. A sent message is marked so a rerun does not resend.
 */
export const email: Processor<'email'> = async (job, { runtime, logger }) => {
  const { db, config } = runtime;
  const data = job.data;
  if (data.kind === 'order-receipt') return receiptMail(runtime, data.orderId, logger);
  if (data.kind === 'cashout-paid' || data.kind === 'refund-paid') return payoutNotice(runtime, data, logger);
  if (data.kind === 'password-reset' || data.kind === 'password-changed') return accountMail(runtime, data, logger);
  if (data.kind === 'security-notice') return securityMail(runtime, data.noticeId, { send: (mail) => mailerFor(runtime).send(mail), site: siteOf(runtime) }, logger);
  // The operator's notice: only for a request waiting to be paid (a HELD one is told when its wait is over).
  const cashout = await db.cashoutRequest.findUnique({ where: { id: data.cashoutId }, include: { user: true } });
  if (!cashout || cashout.status !== 'REQUESTED') return { skipped: true };
  const ethAmount = cashout.ethUsd ? usdToEth(cashout.amountUsd.toFixed(2), cashout.ethUsd.toFixed(8)) : undefined;
  const amount = `$${cashout.amountUsd.toFixed(2)}`;
  // SPEC's to_name, from_name and message (the wallet and the amount), as a letter: in English, to the operator.
  const sent = await mailerFor(runtime).send({
    to: config.operatorEmail,
    subject: operatorMail.subject(cashout.user.name, amount),
    text: [
      mailFor('en').hello(config.operatorName),
      '',
      operatorMail.asked({ name: cashout.user.name, email: cashout.user.email, amount, eth: ethAmount ?? null, ethUsd: cashout.ethUsd?.toFixed(2) ?? '' }),
      '',
      operatorMail.sendTo(config.network.name),
      '',
      `  ${cashout.wallet}`,
      '',
      operatorMail.act(`${siteOf(runtime)}/admin/cashouts`, cashout.id),
    ].join('\n'),
  });
  await db.cashoutRequest.updateMany({ where: { id: cashout.id, status: 'REQUESTED' }, data: { status: 'NOTIFIED' } });
  logger.info({ msg: 'cashout notice sent', cashout_id: cashout.id, message_id: sent.messageId, file: sent.file });
  return { messageId: sent.messageId };
};

/**
 * The buyer's e-mail once the worker verified a payout: the cashout or refund, the
 * wallet, the amount and the transaction hash. Sent once (paidNoticeSentAt).
 */
async function payoutNotice(
  runtime: Runtime,
  data: Extract<JobPayload<'email'>, { kind: 'cashout-paid' | 'refund-paid' }>,
  logger: Logger,
): Promise<unknown> {
  const { db, config } = runtime;
  const profile = (t: MailWords) => (config.publicUrl ? ['', t.yourProfile(`${config.publicUrl}/profile`)] : []);
  let mail: { to: string; subject: string; text: string };
  let markSent: () => Promise<unknown>;
  if (data.kind === 'cashout-paid') {
    const c = await db.cashoutRequest.findUnique({ where: { id: data.cashoutId }, include: { user: true } });
    if (!c || c.status !== 'PAID' || c.paidNoticeSentAt || !c.payoutTxHash) return { skipped: true };
    const t = mailFor(c.user.locale);
    const amount = t.usd(c.amountUsd.toFixed(2));
    mail = {
      to: c.user.email,
      subject: t.cashoutPaid.subject(amount),
      text: [t.hello(c.user.name), '', t.cashoutPaid.sent({ amount, wallet: c.wallet, network: config.network.name }), t.transaction(c.payoutTxHash), ...profile(t)].join('\n'),
    };
    markSent = () => db.cashoutRequest.update({ where: { id: c.id }, data: { paidNoticeSentAt: new Date() } });
  } else {
    const r = await db.refund.findUnique({ where: { id: data.refundId } });
    const user = r?.userId ? await db.user.findUnique({ where: { id: r.userId } }) : null;
    if (!r || !user || r.status !== 'PAID' || r.paidNoticeSentAt || !r.payoutTxHash) return { skipped: true };
    const t = mailFor(user.locale);
    const what = r.source === 'OVERPAYMENT' ? 'overpayment' : r.orderId ? 'order-transfer' : 'transfer';
    const eth = t.eth(r.amount.toFixed(0));
    const sentLine = t.refundPaid.sent({ what, ref: r.orderId ? orderReference(r.orderId) : '', eth, wallet: r.wallet, network: config.network.name });
    mail = { to: user.email, subject: t.refundPaid.subject(eth), text: [t.hello(user.name), '', sentLine, t.transaction(r.payoutTxHash), ...profile(t)].join('\n') };
    markSent = () => db.refund.update({ where: { id: r.id }, data: { paidNoticeSentAt: new Date() } });
  }
  const sent = await mailerFor(runtime).send(mail);
  await markSent();
  logger.info({ msg: 'payout notice sent', kind: data.kind, message_id: sent.messageId, file: sent.file });
  return { messageId: sent.messageId };
}

/**
 * The buyer's receipt for a paid order: the network it was paid on, what was bought, the
 * ETH paid and by which transactions (linked to the explorer when the shop names one), and
 * the link to the receipt page. Sent once (receiptSentAt).
 */
async function receiptMail(runtime: Runtime, orderId: string, logger: Logger): Promise<unknown> {
  const { db, config } = runtime;
  const order = await db.order.findUnique({
    where: { id: orderId },
    include: {
      items: true,
      user: true,
      // The transfers that paid it (an order is paid by one, or a few when the first fell short).
      payments: { where: { status: 'COUNTED' }, select: { txHash: true, amount: true, source: true }, orderBy: { createdAt: 'asc' }, take: 20 },
    },
  });
  if (!order || order.status !== 'PAID' || order.receiptSentAt) return { skipped: true };
  const t = mailFor(order.user.locale);
  const lines = order.items.map((i) =>
    t.receipt.line({ name: i.name, qty: t.count(i.qty), price: t.usd(i.price.toFixed(2)), sum: t.usd(centsToString(toCents(i.price.toFixed(2)) * BigInt(i.qty))) }),
  );
  const transfers = order.payments.filter((p) => p.source !== 'INFLOW');
  const paidWei = order.payments.reduce((sum, p) => sum + BigInt(p.amount?.toFixed(0) ?? '0'), 0n);
  const txLines = transfers.flatMap((p) => {
    const link = explorerTxUrl(config.network, p.txHash);
    return [t.transaction(p.txHash), ...(link ? [`  ${link}`] : [])];
  });
  const site = siteOf(runtime);
  const sent = await mailerFor(runtime).send({
    to: order.user.email,
    subject: t.receipt.subject(orderReference(order.id)),
    text: [
      t.hello(order.user.name),
      '',
      t.receipt.confirmed(orderReference(order.id), config.network.name),
      '',
      ...lines,
      '',
      t.receipt.total(t.usd(order.totalPrice.toFixed(2))),
      ...(paidWei > 0n ? [t.receipt.paid(t.eth(paidWei))] : []),
      ...txLines,
      t.receipt.runsUntil(t.day(order.expiresAt)),
      '',
      t.receipt.receiptLink(`${site}/order/${order.id}`),
      t.yourProfile(`${site}/profile`),
    ].join('\n'),
  });
  await db.order.update({ where: { id: order.id }, data: { receiptSentAt: new Date() } });
  logger.info({ msg: 'receipt sent', order_id: order.id, message_id: sent.messageId, file: sent.file });
  return { messageId: sent.messageId };
}

/** Where the e-mails' links point: PUBLIC_URL, or this machine in development. */
const siteOf = (runtime: Runtime) => runtime.config.publicUrl?.replace(/\/$/, '') ?? `http://localhost:${runtime.config.port}`;

/**
 * The password-reset link (its token unsealed here, and erased from the database once
 * sent: a retry after that has nothing to send), and the notice that the password was
 * changed through such a link.
 */
async function accountMail(
  runtime: Runtime,
  data: Extract<JobPayload<'email'>, { kind: 'password-reset' | 'password-changed' }>,
  logger: Logger,
): Promise<unknown> {
  const { db, config } = runtime;
  if (data.kind === 'password-reset') {
    const mail = await resetMail(db, config, data.resetId);
    if (!mail) return { skipped: true };
    const link = `${siteOf(runtime)}/reset-password?token=${encodeURIComponent(mail.token)}`;
    const t = mailFor(mail.locale);
    const sent = await mailerFor(runtime).send({
      to: mail.to,
      subject: t.passwordReset.subject,
      text: [t.hello(mail.name), '', t.passwordReset.asked, '', link, '', t.passwordReset.linkWorks(t.time(mail.expiresAt)), t.passwordReset.ignore].join('\n'),
    });
    await forgetResetToken(db, data.resetId);
    logger.info({ msg: 'password reset link sent', reset_id: data.resetId, message_id: sent.messageId, file: sent.file });
    return { messageId: sent.messageId };
  }
  const reset = await db.passwordReset.findUnique({ where: { id: data.resetId }, include: { user: { select: { email: true, name: true, locale: true, deletedAt: true } } } });
  if (!reset?.usedAt || reset.user.deletedAt) return { skipped: true };
  const t = mailFor(reset.user.locale);
  const sent = await mailerFor(runtime).send({
    to: reset.user.email,
    subject: t.passwordResetUsed.subject,
    text: [t.hello(reset.user.name), '', t.passwordResetUsed.changed(t.time(reset.usedAt)), t.passwordResetUsed.notYou(siteOf(runtime))].join('\n'),
  });
  logger.info({ msg: 'password change notice sent', reset_id: data.resetId, message_id: sent.messageId, file: sent.file });
  return { messageId: sent.messageId };
}
