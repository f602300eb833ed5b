import type { PublicClient } from 'viem';
import type { AppConfig } from '../infra/config.ts';
import { requireSignature } from '../chain/signatures.ts';
import type { Tracer } from '../chain/trace.ts';
import type { AssetCode } from '../contract/json-parts.ts';
import type { Db, PaymentSource, PaymentStatus } from '../infra/db.ts';
import type { Effect } from '../infra/effects.ts';
import { claimMessage } from '../contract/wallet.ts';
import { conflict, notFound, unavailable, UserError } from '../infra/errors.ts';
import type { Logger } from '../infra/logger.ts';
import { settleTransfer } from './settle.ts';
import { noValueReason, notYetReason, readPaymentTransfer } from './transfer.ts';
import { verifyPayment } from './verifier.ts';

/**
 * What admins do with transfers no order claimed by itself (UNRESOLVED, LATE). An
 * assignment reads the transfer again through the same checks as the worker's
 * verification and counts it through the same settlement: confirmations, chain, the
 * receiving address, mined after the order was placed, stock all or nothing.
 */
type Deps = { config: AppConfig; db: Db; chain: PublicClient; tracer: Tracer; logger: Logger; currentAnswer: (asset: AssetCode) => Promise<bigint> };

/** A transfer delivered in several calls, or with ETH that passed through its caller: nobody can sign for it. */
export const NO_SINGLE_PAYER =
  'This transfer was delivered by several calls or with ETH from more than one wallet: no single address can sign for it. An admin will assign or refund it.';

/** Why a transfer cannot be assigned to any order (null when it can): the list of orders offered and the assignment both ask. */
export function assignRefusal(payment: { status: PaymentStatus; source: PaymentSource }): string | null {
  if (payment.status !== 'UNRESOLVED' && payment.status !== 'LATE') return 'Only unresolved or late transfers can be assigned';
  if (payment.source === 'INFLOW') return 'ETH that no transaction explains cannot be assigned to an order: refund it';
  return null;
}

/**
 * `claimedBy`: a buyer's claim, signed by this address, which must still be the
 * transfer's one payer as the chain is read again now (the signature was checked against
 * the stored payer); a claim only pays an order its buyer could still pay (settle.ts).
 */
export async function assignTransfer(
  deps: Deps,
  paymentId: string,
  orderId: string,
  opts: { claimedBy?: string } = {},
): Promise<{ status: 'COUNTED'; orderStatus: string; effects: Effect[] }> {
  const { db, config } = deps;
  const payment = await db.payment.findUnique({ where: { id: paymentId } });
  if (!payment) throw notFound('Payment not found');
  const refusal = assignRefusal(payment);
  if (refusal) throw conflict(refusal);
  const order = await db.order.findUnique({ where: { id: orderId }, select: { status: true } });
  if (!order || order.status === 'DELETED') throw notFound('Order not found');
  const reading = await readPaymentTransfer(deps, payment);
  if (reading.state === 'halted') throw unavailable(`Payment verification is halted: ${reading.reason}`);
  if (reading.state !== 'mined') throw conflict('This transfer is not on chain as a mined transaction');
  const notCounted = noValueReason(reading.transfer, config, payment) ?? notYetReason(reading.transfer, config);
  if (notCounted) throw conflict(notCounted);
  if (opts.claimedBy !== undefined && reading.transfer.payer?.toLowerCase() !== opts.claimedBy.toLowerCase()) throw conflict(NO_SINGLE_PAYER);
  const outcome = await settleTransfer(db, config, { paymentId, transfer: reading.transfer, currentAnswer: deps.currentAnswer, assignTo: orderId, claim: opts.claimedBy !== undefined });
  if (outcome.kind === 'counted') return { status: 'COUNTED', orderStatus: outcome.orderStatus, effects: outcome.effects };
  if (outcome.kind === 'refused') throw conflict(outcome.reason);
  throw conflict('This transfer was counted already');
}

/**
 * A buyer claims a transfer that reached the shop without their order's tag (a wallet
 * that rounded the amount): they sign a message naming the order and the transaction
 * with the address that paid it (the sender of a plain transfer, the smart-contract
 * wallet whose call paid from its own balance). A valid signature lets the claim through
 * exactly the rules of an admin's assignment. Nobody can sign for a transfer delivered
 * in several calls (a batch can carry another wallet's payment behind the batcher's own
 * first call) or with ETH that passed through its caller, nor for an exchange's
 * withdrawal (delivered by the exchange's wallet): an admin assigns or refunds those.
 * A transfer still being confirmed (mined, as far as the shop knows) is verified on the
 * spot: confirmed, it is claimed at once; not yet, the answer says what it waits for
 * (StillConfirming). Each try counts against the buyer's claims (rate-limited: a try
 * may cost the node a read).
 */
export async function claimTransfer(
  deps: Deps,
  claim: { userId: string; orderId: string; txHash: string; signature: `0x${string}` },
): Promise<{ status: 'COUNTED'; orderStatus: string; effects: Effect[] }> {
  const { db, chain } = deps;
  const order = await db.order.findUnique({ where: { id: claim.orderId }, select: { userId: true, status: true } });
  if (!order || order.userId !== claim.userId || order.status === 'DELETED') throw notFound('Order not found');
  let payment = await db.payment.findFirst({ where: { depositAddress: null, txHash: claim.txHash, logIndex: null } });
  if (!payment || payment.source === 'INFLOW') throw notFound('The shop has not seen this transaction reach its address (yet)');
  if (payment.status === 'PENDING') {
    // Not mined as far as the shop knows: nothing to ask the node for (a claim costs the
    // node nothing before that). Mined: verified now rather than at the sweeper's next run.
    if (payment.blockNumber === null) throw new StillConfirming('waiting to be mined');
    const verdict = await verifyPayment(deps, payment.id);
    if (verdict.state === 'wait') throw new StillConfirming(verdict.reason);
    payment = await db.payment.findUniqueOrThrow({ where: { id: payment.id } });
  }
  if (payment.status === 'COUNTED') throw conflict('This transfer was counted already');
  if (payment.status === 'REFUNDED') throw conflict('This transfer is being refunded');
  if (payment.status !== 'UNRESOLVED') throw conflict('Only a transfer no order claimed by itself can be claimed');
  if (!payment.payerAddress) throw conflict(NO_SINGLE_PAYER);
  await requireSignature(chain, {
    address: payment.payerAddress,
    message: claimMessage(claim.orderId, claim.txHash),
    signature: claim.signature,
    refusal: `The signature is not from the address that sent this transfer (${payment.payerAddress})`,
  });
  return assignTransfer(deps, payment.id, claim.orderId, { claimedBy: payment.payerAddress });
}

/** The 409 for a claim on a transfer the shop is still confirming: what it waits for, and what to do. */
export class StillConfirming extends UserError {
  constructor(reason: string) {
    super(409, `This transfer is still being confirmed on chain (${reason.charAt(0).toLowerCase()}${reason.slice(1)}): claim it again once it is confirmed`);
  }
}
