import type { PublicClient } from 'viem';
import type { AppConfig } from '../config.ts';
import { requireSignature } from '../chain/signatures.ts';
import type { Tracer } from '../chain/trace.ts';
import type { Db } from '../db.ts';
import { claimMessage } from '../contract/wallet.ts';
import { conflict, notFound, unavailable } from '../errors.ts';
import { settleTransfer } from './settle.ts';
import { noValueReason, notYetReason, readTransfer } from './transfer.ts';

/**
 * What admins do with transfers no order claimed by itself (UNRESOLVED, LATE). An
 * assignment reads the transfer again through the same checks as the worker's
 * verification and counts it through the same settlement: confirmations, chain, the
 * receiving address, mined after the order was placed, stock all or nothing.
 */
type Deps = { config: AppConfig; db: Db; chain: PublicClient; tracer: Tracer; currentAnswer: () => Promise<bigint> };

export async function assignTransfer(deps: Deps, paymentId: string, orderId: string): Promise<{ status: 'COUNTED'; orderStatus: string; paidNow: boolean }> {
  const { db, config } = deps;
  const payment = await db.payment.findUnique({ where: { id: paymentId } });
  if (!payment) throw notFound('Payment not found');
  if (payment.status !== 'UNRESOLVED' && payment.status !== 'LATE') throw conflict('Only unresolved or late transfers can be assigned');
  if (payment.source === 'INFLOW') throw conflict('ETH that no transaction explains cannot be assigned to an order: refund it');
  const order = await db.order.findUnique({ where: { id: orderId }, select: { status: true } });
  if (!order || order.status === 'DELETED') throw notFound('Order not found');
  const reading = await readTransfer(deps, payment.txHash);
  if (reading.state === 'halted') throw unavailable(`Payment verification is halted: ${reading.reason}`);
  if (reading.state !== 'mined') throw conflict('This transfer is not on chain as a mined transaction');
  const refusal = noValueReason(reading.transfer, config) ?? notYetReason(reading.transfer, config);
  if (refusal) throw conflict(refusal);
  const outcome = await settleTransfer(db, config, { paymentId, transfer: reading.transfer, currentAnswer: deps.currentAnswer, assignTo: orderId });
  if (outcome.kind === 'counted') return { status: 'COUNTED', orderStatus: outcome.orderStatus, paidNow: outcome.paidNow };
  if (outcome.kind === 'refused') throw conflict(outcome.reason);
  throw conflict('This transfer was counted already');
}

/**
 * A buyer claims a transfer that reached the shop without their order's tag (a wallet
 * that rounded the amount): they sign a message naming the order and the transaction
 * with the address that delivered it (the sender of a plain transfer, the smart-contract
 * wallet whose call paid). A valid signature lets the claim through exactly the rules of
 * an admin's assignment. An exchange's withdrawal is delivered by the exchange's wallet:
 * only an admin can assign it.
 */
export async function claimTransfer(
  deps: Deps,
  claim: { userId: string; orderId: string; txHash: string; signature: `0x${string}` },
): Promise<{ status: 'COUNTED'; orderStatus: string; paidNow: boolean }> {
  const { db, chain } = deps;
  const order = await db.order.findUnique({ where: { id: claim.orderId }, select: { userId: true, status: true } });
  if (!order || order.userId !== claim.userId || order.status === 'DELETED') throw notFound('Order not found');
  const payment = await db.payment.findUnique({ where: { txHash: claim.txHash } });
  if (!payment || payment.source === 'INFLOW') throw notFound('The shop has not seen this transaction reach its address (yet)');
  if (payment.status === 'COUNTED') throw conflict('This transfer was counted already');
  if (payment.status !== 'UNRESOLVED') throw conflict('Only a transfer no order claimed by itself can be claimed');
  if (!payment.fromAddress) throw conflict('This transfer has no known sender to sign for it');
  await requireSignature(chain, {
    address: payment.fromAddress,
    message: claimMessage(claim.orderId, claim.txHash),
    signature: claim.signature,
    refusal: `The signature is not from the address that sent this transfer (${payment.fromAddress})`,
  });
  return assignTransfer(deps, payment.id, claim.orderId);
}
