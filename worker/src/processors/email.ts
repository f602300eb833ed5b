import { createMailer, forgetResetToken, resetMail, type Mailer, type Runtime } from '@shop/core';
import { centsToString, explorerTxUrl, formatDay, formatEth, formatTime, orderReference, toCents, usdToEth } from '@shop/core/contract';
import type { JobPayload, Logger } from '@shop/core';
import type { Processor } from '../worker-manager.ts';
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
 * verified payout, the password-reset mails and the security notices (security-mail.ts). A failure
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
  const eth = ethAmount ? ` (about ${ethAmount} ETH at $${cashout.ethUsd!.toFixed(2)}/ETH)` : '';
  // SPEC's to_name, from_name and message (the wallet and the amount), as a letter.
  const sent = await mailerFor(runtime).send({
    to: config.operatorEmail,
    subject: `Cashout request from ${cashout.user.name}: $${cashout.amountUsd.toFixed(2)}`,
    text: [
      `Hello ${config.operatorName},`,
      '',
      `${cashout.user.name} (${cashout.user.email}) asked for a cashout of $${cashout.amountUsd.toFixed(2)}${eth}.`,
      '',
      `Send it to this wallet on ${config.network.name}:`,
      '',
      `  ${cashout.wallet}`,
      '',
      `Pay it and record the payout at ${siteOf(runtime)}/admin/cashouts (request ${cashout.id}).`,
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
  const profile = config.publicUrl ? ['', `Your profile: ${config.publicUrl}/profile`] : [];
  let mail: { to: string; subject: string; text: string };
  let markSent: () => Promise<unknown>;
  if (data.kind === 'cashout-paid') {
    const c = await db.cashoutRequest.findUnique({ where: { id: data.cashoutId }, include: { user: true } });
    if (!c || c.status !== 'PAID' || c.paidNoticeSentAt || !c.payoutTxHash) return { skipped: true };
    mail = {
      to: c.user.email,
      subject: `Your cashout of $${c.amountUsd.toFixed(2)} was paid`,
      text: [
        `Hello ${c.user.name},`,
        '',
        `Your cashout of $${c.amountUsd.toFixed(2)} was sent to ${c.wallet} on ${config.network.name}.`,
        `Transaction: ${c.payoutTxHash}`,
        ...profile,
      ].join('\n'),
    };
    markSent = () => db.cashoutRequest.update({ where: { id: c.id }, data: { paidNoticeSentAt: new Date() } });
  } else {
    const r = await db.refund.findUnique({ where: { id: data.refundId } });
    const user = r?.userId ? await db.user.findUnique({ where: { id: r.userId } }) : null;
    if (!r || !user || r.status !== 'PAID' || r.paidNoticeSentAt || !r.payoutTxHash) return { skipped: true };
    const what = r.source === 'OVERPAYMENT' ? `the overpayment of order ${orderReference(r.orderId!)}` : r.orderId ? `your transfer for order ${orderReference(r.orderId)}` : 'your transfer';
    mail = {
      to: user.email,
      subject: `Refund of ${formatEth(r.amount.toFixed(0))} ETH sent`,
      text: [
        `Hello ${user.name},`,
        '',
        `We refunded ${what}: ${formatEth(r.amount.toFixed(0))} ETH was sent to ${r.wallet} on ${config.network.name}.`,
        `Transaction: ${r.payoutTxHash}`,
        ...profile,
      ].join('\n'),
    };
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
  const lines = order.items.map((i) => `- ${i.name}: ${i.qty} x $${i.price.toFixed(2)} = $${centsToString(toCents(i.price.toFixed(2)) * BigInt(i.qty))}`);
  const transfers = order.payments.filter((p) => p.source !== 'INFLOW');
  const paidWei = order.payments.reduce((sum, p) => sum + BigInt(p.amount?.toFixed(0) ?? '0'), 0n);
  const txLines = transfers.flatMap((p) => {
    const link = explorerTxUrl(config.network, p.txHash);
    return [`Transaction: ${p.txHash}`, ...(link ? [`  ${link}`] : [])];
  });
  const site = siteOf(runtime);
  const sent = await mailerFor(runtime).send({
    to: order.user.email,
    subject: `Payment received for order ${orderReference(order.id)}`,
    text: [
      `Hello ${order.user.name},`,
      '',
      `Your payment for order ${orderReference(order.id)} was confirmed on ${config.network.name}.`,
      '',
      ...lines,
      '',
      `Total: $${order.totalPrice.toFixed(2)}`,
      ...(paidWei > 0n ? [`Paid: ${formatEth(paidWei)} ETH`] : []),
      ...txLines,
      `Your packages run until ${formatDay(order.expiresAt)}.`,
      '',
      `Your receipt: ${site}/order/${order.id}`,
      `Your profile: ${site}/profile`,
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
    const sent = await mailerFor(runtime).send({
      to: mail.to,
      subject: 'Set a new password',
      text: [
        `Hello ${mail.name},`,
        '',
        'Someone (we hope you) asked to set a new password for your account. Open this link to choose one:',
        '',
        link,
        '',
        `The link works once, until ${formatTime(mail.expiresAt)}.`,
        'If you did not ask for it, ignore this e-mail: your password stays as it is.',
      ].join('\n'),
    });
    await forgetResetToken(db, data.resetId);
    logger.info({ msg: 'password reset link sent', reset_id: data.resetId, message_id: sent.messageId, file: sent.file });
    return { messageId: sent.messageId };
  }
  const reset = await db.passwordReset.findUnique({ where: { id: data.resetId }, include: { user: { select: { email: true, name: true, deletedAt: true } } } });
  if (!reset?.usedAt || reset.user.deletedAt) return { skipped: true };
  const sent = await mailerFor(runtime).send({
    to: reset.user.email,
    subject: 'Your password was changed',
    text: [
      `Hello ${reset.user.name},`,
      '',
      `The password of your account was changed through a reset link at ${formatTime(reset.usedAt)}, and every session of the account was signed out.`,
      `If this was not you, ask for a new link at ${siteOf(runtime)}/forgot-password and tell us at once.`,
    ].join('\n'),
  });
  logger.info({ msg: 'password change notice sent', reset_id: data.resetId, message_id: sent.messageId, file: sent.file });
  return { messageId: sent.messageId };
}
