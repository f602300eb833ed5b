import type { Db } from '../infra/db.ts';
import type { Tx } from './ledger.ts';
import type { PayoutTarget } from '../infra/queues.ts';

/**
 * Why a cashout or a refund can be neither rejected nor given another payout hash now,
 * or null: a payout transaction is being checked for it (it may still land), or a
 * replaced payout sent through a contract holds it until an admin withdraws the hold
 * (its operation may still run). The one home of that rule, for the payout checks and
 * the books' cashout returns alike: here, beneath both, because payouts/ builds on the
 * books and never the other way round.
 */
export async function payoutHold(tx: Db | Tx, target: PayoutTarget): Promise<string | null> {
  const where = target.kind === 'cashout' ? { cashoutId: target.id } : { refundId: target.id };
  if (await tx.payoutCheck.count({ where: { ...where, status: 'CHECKING' } })) return 'A payout transaction is being checked for this request: wait for its verdict';
  const held = await tx.payoutCheck.findFirst({ where: { ...where, holds: true }, select: { txHash: true } });
  if (held) return `The payout in ${held.txHash} was sent through a contract whose operation may still run: withdraw its hold once it cannot`;
  return null;
}
