import type { CashoutStatus } from '../infra/db.ts';
import { conflict } from '../infra/errors.ts';
import { postEntries, type Tx } from './ledger.ts';
import { payoutHold } from './payout-hold.ts';

/** A cashout request still waiting to be paid (or rejected). */
export const OPEN_CASHOUT_STATUSES = ['REQUESTED', 'NOTIFIED'] as const;
/** A cashout whose amount can still go back: one waiting to be paid, or held for its new wallet. */
export const RETURNABLE_CASHOUT_STATUSES = ['HELD', ...OPEN_CASHOUT_STATUSES] as const;

/** What each way of giving a cashout back may undo: the owner's link only a HELD one (see returnCashout). */
const UNDOABLE: Record<'REJECTED' | 'CANCELLED', readonly CashoutStatus[]> = { REJECTED: RETURNABLE_CASHOUT_STATUSES, CANCELLED: ['HELD'] };

/**
 * Gives a cashout's amount back to the active balance through the ledger, once: an
 * admin's rejection (REJECTED) or the owner's cancel through the new-wallet e-mail
 * (CANCELLED). The owner's cancel undoes only a cashout still HELD: once released it is
 * with the admins, who may have sent its ETH before naming the hash (only they know;
 * their rejection stays theirs). Under the request's row lock, which the payout checks take too. Not while
 * a payout transaction is being checked for it, nor once one delivered part of it (the
 * ETH has left: the request is paid in full, never both): then the reason. 'not-open'
 * when it is paid, rejected or cancelled already. Runs in the caller's transaction.
 */
export async function returnCashout(tx: Tx, cashoutId: string, outcome: 'REJECTED' | 'CANCELLED'): Promise<'returned' | 'not-open' | { held: string }> {
  await tx.$queryRaw`SELECT "id" FROM "CashoutRequest" WHERE "id" = ${cashoutId}::uuid FOR UPDATE`;
  const hold = await payoutHold(tx, { kind: 'cashout', id: cashoutId });
  if (hold) return { held: hold };
  const delivered = await tx.payoutCheck.findFirst({ where: { cashoutId, deliveredAmount: { gt: 0 } } });
  if (delivered) return { held: `ETH already reached the wallet for this request (in ${delivered.txHash}): pay the rest and mark it paid, do not reject it` };
  const changed = await tx.cashoutRequest.updateMany({ where: { id: cashoutId, status: { in: [...UNDOABLE[outcome]] } }, data: { status: outcome } });
  if (changed.count !== 1) return 'not-open';
  const request = await tx.cashoutRequest.findUniqueOrThrow({ where: { id: cashoutId } });
  const how = outcome === 'REJECTED' ? { reference: `cashout:${cashoutId}:rejected`, key: `cashout-reject:${cashoutId}` } : { reference: `cashout:${cashoutId}:cancelled`, key: `cashout-cancel:${cashoutId}` };
  await postEntries(tx, [{ userId: request.userId, account: 'ACTIVE', amount: request.amountUsd, kind: 'CASHOUT', reference: how.reference, idempotencyKey: how.key }]);
  return 'returned';
}

/** An admin's rejection: as returnCashout, a payout in the way being a 409 with its reason. */
export async function rejectReturned(tx: Tx, cashoutId: string): Promise<boolean> {
  const result = await returnCashout(tx, cashoutId, 'REJECTED');
  if (typeof result === 'object') throw conflict(result.held);
  return result === 'returned';
}
