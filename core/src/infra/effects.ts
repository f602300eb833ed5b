import { jobs, type PayoutTarget, type Queues } from './queues.ts';

/**
 * What follows a committed change: the e-mails and checks it sets off. The core function
 * that makes the change decides them and returns them; whoever called it (an api route, a
 * worker processor) hands them on after the commit with `handOn`, and never decides them
 * itself. Each is also on record in the rows the change wrote in its own transaction (an
 * order PAID with no receiptSentAt, a cashout not yet notified, an accepted payout whose
 * notice is unsent, a payout check still CHECKING, a security notice unsent): that record is the outbox, and the
 * sweeper (payments/maintenance.ts) hands on whatever a lost hand-off missed.
 */
export type Effect =
  /** The buyer's receipt for an order that became PAID. */
  | { kind: 'receipt'; orderId: string }
  /** The operator's e-mail about a new cashout request. */
  | { kind: 'cashout-notice'; cashoutId: string }
  /** The e-mail saying a cashout or refund was paid, with its hash. */
  | { kind: 'payout-notice'; target: PayoutTarget }
  /** A payout transaction to read on chain (named by an admin, or a replacement found). */
  | { kind: 'payout-check'; checkId: string }
  /** A security e-mail to the account's owner (security-notices.ts). */
  | { kind: 'security-notice'; noticeId: string };

/**
 * Hands each effect to its queue (deterministic job ids: one handed on twice is queued
 * once). A failure (Redis down) never undoes or hides the committed change: it is given to
 * `failed` (to log) and the sweeper hands it on later.
 */
export async function handOn(queues: Queues, effects: readonly Effect[], failed: (err: unknown, effect: Effect) => void): Promise<void> {
  for (const effect of effects) {
    try {
      switch (effect.kind) {
        case 'receipt':
          await jobs.sendReceipt(queues, effect.orderId);
          break;
        case 'cashout-notice':
          await jobs.sendCashoutNotice(queues, effect.cashoutId);
          break;
        case 'payout-notice':
          await jobs.sendPayoutNotice(queues, effect.target);
          break;
        case 'payout-check':
          await jobs.checkPayout(queues, effect.checkId);
          break;
        case 'security-notice':
          await jobs.sendSecurityNotice(queues, effect.noticeId);
          break;
      }
    } catch (err) {
      failed(err, effect);
    }
  }
}
