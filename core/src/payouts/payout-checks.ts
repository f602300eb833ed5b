import type { Hash } from 'viem';
import { payoutWorth, requirePayoutApproval } from '../approvals/index.ts';
import { transactionOrNull } from '../chain/transfer-reader.ts';
import type { AppConfig } from '../infra/config.ts';
import type { Effect } from '../infra/effects.ts';
import { toCents } from '../contract/money.ts';
import { formatTime } from '../contract/time.ts';
import { Prisma, type Asset } from '../infra/db.ts';
import { conflict, notFound } from '../infra/errors.ts';
import { priceToAnswer, usdCentsToWei } from '../rails/eth/amounts.ts';
import type { PayoutTarget } from '../infra/queues.ts';
import { payoutHold } from '../books/payout-hold.ts';
import { nonceUsedElsewhere } from './replacement.ts';
import type { Deps } from './types.ts';


/**
 * An admin says the payout was sent in `txHash`: a check is recorded for the worker, and
 * the request stays open until it accepts it. Refused here (409): a request already
 * paid or rejected, a large one no second admin approved (a cashout also counted with what
 * this admin and its packages paid out in 24 hours), one whose previous hash is still
 * being checked, a hash that pays another payout.
 */
export async function requestPayoutCheck(
  deps: Pick<Deps, 'db'> & { config: Pick<AppConfig, 'approvalThresholdUsd'>; currentPrice: () => Promise<string> },
  input: PayoutTarget & { txHash: string; actorId: string },
): Promise<{ checkId: string; effects: Effect[] }> {
  const { db } = deps;
  // A hash someone reported as a payment (anyone can report any hash) is no reason to
  // refuse it: what the chain says decides (sent by a payout address, to the wallet).
  const txHash = input.txHash.toLowerCase();
  const cashout = input.kind === 'cashout' ? await db.cashoutRequest.findUnique({ where: { id: input.id } }) : null;
  // A cashout requested while no price could be read is valued at today's price.
  const price = cashout && !cashout.ethUsd ? await deps.currentPrice() : undefined;
  // A refund of a transfer no order priced is valued (for the approval rule) at today's price, read before the row is locked.
  const refund = input.kind === 'refund' ? await db.refund.findUnique({ where: { id: input.id }, select: { amountUsd: true } }) : null;
  const refundPrice = refund && refund.amountUsd === null ? await deps.currentPrice().catch(() => null) : null;
  try {
    return await db.$transaction(async (tx) => {
      let wallet: string;
      // What the payout must deliver, in its asset's smallest units: a cashout is paid in
      // ETH at its price; a refund in the asset it owes back.
      let asset: Asset = 'ETH';
      let expected: bigint;
      if (input.kind === 'cashout') {
        await tx.$queryRaw`SELECT "id" FROM "CashoutRequest" WHERE "id" = ${input.id}::uuid FOR UPDATE`;
        const c = await tx.cashoutRequest.findUnique({ where: { id: input.id } });
        if (!c) throw notFound('Cashout request not found');
        if (c.status === 'HELD') throw conflict(`This cashout waits until ${formatTime(c.holdUntil)}: the wallet is new to the account`);
        if (c.status !== 'REQUESTED' && c.status !== 'NOTIFIED') throw conflict('This cashout request is already settled');
        wallet = c.wallet;
        expected = usdCentsToWei(toCents(c.amountUsd.toFixed(2)), priceToAnswer(c.ethUsd?.toFixed(8) ?? (price as string)));
      } else {
        await tx.$queryRaw`SELECT "id" FROM "Refund" WHERE "id" = ${input.id}::uuid FOR UPDATE`;
        const r = await tx.refund.findUnique({ where: { id: input.id } });
        if (!r) throw notFound('Refund not found');
        if (r.status !== 'REQUESTED') throw conflict('This refund is already paid');
        wallet = r.wallet;
        asset = r.asset;
        expected = BigInt(r.amount.toFixed(0));
      }
      const target = input.kind === 'cashout' ? { cashoutId: input.id } : { refundId: input.id };
      const hold = await payoutHold(tx, input);
      if (hold) throw conflict(hold);
      // A large payout is sent only once a second admin approved it (approvals.ts).
      const { counted } = await payoutWorth(tx, input, async () => refundPrice ?? Promise.reject(new Error('no price')));
      await requirePayoutApproval(tx, deps.config, input, counted, wallet, input.actorId);
      const check = await tx.payoutCheck.create({
        data: { ...target, txHash, wallet, asset, expectedAmount: new Prisma.Decimal(expected.toString()), requestedById: input.actorId, reason: 'Waiting for the worker to read it' },
      });
      return { checkId: check.id, effects: [{ kind: 'payout-check', checkId: check.id }] };
    });
  } catch (err) {
    // The partial unique index: another payout's check holds this hash.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw conflict('This transaction already pays a payout (or part of one)');
    throw err;
  }
}

/**
 * An admin withdraws what holds a request's payout: the hash being checked, when it is
 * one the node has never shown, pending or mined (a mistyped hash, one of another chain:
 * asked of the node again now), or one whose nonce another transaction used that the node
 * cannot find (the admin found it); or the hold of a replaced payout sent through a
 * contract (the admin saw that its operation can no longer run). A transaction the node
 * has seen and that may still be mined cannot be withdrawn, only replaced in the sending
 * wallet (the same nonce), which the check follows. Withdrawing is the admin's statement
 * that the payout will never arrive: the request can then be rejected or paid again.
 */
export async function withdrawPayoutCheck(deps: Pick<Deps, 'db' | 'chain' | 'config'>, target: PayoutTarget): Promise<void> {
  const { db, chain } = deps;
  const where = target.kind === 'cashout' ? { cashoutId: target.id } : { refundId: target.id };
  const check = await db.payoutCheck.findFirst({ where: { ...where, status: 'CHECKING' } });
  if (!check) {
    const held = await db.payoutCheck.findFirst({ where: { ...where, holds: true } });
    if (!held) throw conflict('No payout transaction is being checked or held for this request');
    await db.payoutCheck.updateMany({ where: { id: held.id, holds: true }, data: { holds: false, reason: `${held.reason ?? ''} (hold withdrawn by an admin)`.slice(0, 500) } });
    return;
  }
  const tx = check.fromAddress
    ? { from: check.fromAddress, nonce: check.nonce as bigint }
    : await transactionOrNull(chain, check.txHash as Hash);
  let reason = 'Withdrawn by an admin: the node never showed this transaction';
  if (tx) {
    const sender = { fromAddress: tx.from.toLowerCase(), nonce: BigInt(tx.nonce) };
    if ((await nonceUsedElsewhere(deps, check.txHash as Hash, sender)) === null) {
      throw conflict(
        `The node has seen this transaction (nonce ${tx.nonce} of ${sender.fromAddress}): it may still be mined, so it cannot be withdrawn. To cancel it, replace it in the sending wallet (the same nonce): the shop follows the replacement`,
      );
    }
    reason = `Withdrawn by an admin: its nonce ${sender.nonce} was used by another transaction of ${sender.fromAddress}`;
  }
  const withdrawn = await db.payoutCheck.updateMany({ where: { id: check.id, status: 'CHECKING', fromAddress: check.fromAddress }, data: { status: 'REFUSED', reason } });
  if (withdrawn.count !== 1) throw conflict('This check changed meanwhile: reload and try again');
}

