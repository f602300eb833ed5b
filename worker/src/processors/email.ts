import { createMailer, type Mailer, type Runtime } from '@shop/core';
import { centsToString, toCents, usdToEth } from '@shop/core/contract';
import type { Processor } from '../worker-manager.ts';

let mailer: Mailer | undefined;
const mailerFor = (runtime: Runtime) => (mailer ??= createMailer(runtime.config));

export function closeMailer(): void {
  mailer?.close();
  mailer = undefined;
}

/**
 * E-mail jobs: the buyer's receipt for a paid order, and the operator's notice of a
 * cashout request (to_name, from_name, message with the wallet and amount). A failure
 * throws, so BullMQ retries with backoff and, in the end, keeps the job visible as
 * failed in the queue dashboard. A sent message is marked so a rerun does not resend.
 */
export const email: Processor<'email'> = async (job, { runtime, logger }) => {
  const { db, config } = runtime;
  const data = job.data;
  if (data.kind === 'order-receipt') {
    const order = await db.order.findUnique({ where: { id: data.orderId }, include: { items: true, user: true } });
    if (!order || order.status !== 'PAID' || order.receiptSentAt) return { skipped: true };
    const lines = order.items.map((i) => `- ${i.name}: ${i.qty} x $${i.price.toFixed(2)} = $${centsToString(toCents(i.price.toFixed(2)) * BigInt(i.qty))}`);
    const expires = order.expiresAt ? order.expiresAt.toISOString().slice(0, 10) : '';
    const sent = await mailerFor(runtime).send({
      to: order.user.email,
      subject: `Payment received for order ${order.id}`,
      text: [
        `Hello ${order.user.name},`,
        '',
        `Your payment for order ${order.id} was confirmed on Ethereum mainnet.`,
        '',
        ...lines,
        '',
        `Total: $${order.totalPrice.toFixed(2)}`,
        `Your packages run until ${expires}.`,
        ...(config.publicUrl ? ['', `Your profile: ${config.publicUrl}/profile`] : []),
      ].join('\n'),
    });
    await db.order.update({ where: { id: order.id }, data: { receiptSentAt: new Date() } });
    logger.info({ msg: 'receipt sent', order_id: order.id, message_id: sent.messageId, file: sent.file });
    return { messageId: sent.messageId };
  }
  const cashout = await db.cashoutRequest.findUnique({ where: { id: data.cashoutId }, include: { user: true } });
  if (!cashout || cashout.status !== 'REQUESTED') return { skipped: true };
  const ethAmount = cashout.ethUsd ? usdToEth(cashout.amountUsd.toFixed(2), cashout.ethUsd.toFixed(8)) : undefined;
  const eth = ethAmount ? ` (about ${ethAmount} ETH at $${cashout.ethUsd!.toFixed(2)}/ETH)` : '';
  const params = {
    to_name: config.operatorName,
    from_name: cashout.user.name,
    message: `Cashout request ${cashout.id}: send $${cashout.amountUsd.toFixed(2)}${eth} to wallet ${cashout.wallet} on Ethereum mainnet for ${cashout.user.email}.`,
  };
  const sent = await mailerFor(runtime).send({
    to: config.operatorEmail,
    subject: `Cashout request from ${cashout.user.name}: $${cashout.amountUsd.toFixed(2)}`,
    text: [`to_name: ${params.to_name}`, `from_name: ${params.from_name}`, `message: ${params.message}`].join('\n'),
  });
  await db.cashoutRequest.updateMany({ where: { id: cashout.id, status: 'REQUESTED' }, data: { status: 'NOTIFIED' } });
  logger.info({ msg: 'cashout notice sent', cashout_id: cashout.id, message_id: sent.messageId, file: sent.file });
  return { messageId: sent.messageId };
};
