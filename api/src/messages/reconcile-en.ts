import type { Translation } from './en.ts';

/**
 * The reconciler's findings as its report words them (core/src/reconcile: each check's
 * message, the audit log's breaks it passes on, and the words of its `checked` line),
 * which the admin's report shows in the admin's language
 * (modules/admin-reconciliation). A file of their own beside en.ts, merged in by
 * translate.ts, typed as it is: reconcile-az.ts and reconcile-ru.ts must translate each
 * (a missing one is a type error), and a new finding missing here fails messages.test.ts.
 * Stored reports and the console (`npm run reconcile`) stay in English.
 */

/** Findings without values, by their exact text. */
export const RECONCILE_EXACT = [
  'The order is PAID but a line has no daily credit term: daily credit does not read it',
  'The cashout is PAID without a payout transaction the worker accepted',
  'The refund is PAID without a payout transaction the worker accepted',
  'A counted transfer has no order, block or value',
  'The sweep is CONFIRMED without the amount it swept',
  'The deposit is marked swept by a sweep that did not sweep its address',
  'A transfer to the receiving address is marked swept',
  'not checked: chain checks left out',
] as const;

/**
 * Findings with values, by template (values kept as written: amounts, ids, hashes, statuses).
 * The first that matches wins, so a narrower one comes before a wider one ('{settled} wei'
 * before '{settled}', 'holds none' before 'holds {qty}'). A block's `{state}` is 'now <hash>'
 * or 'not on the chain' (chain-checks.ts).
 */
export const RECONCILE_TEMPLATES = [
  // Balances, orders, cashouts, refunds, packages (subjects.ts).
  'The {account} balance is {balance} but its ledger sums to {ledger}',
  'The order records {paid} paid but its counted transfers add up to {counted}',
  'The order is PAID but its counted transfers ({counted}) do not cover its total ({total})',
  "The order's counted transfers ({counted}) cover its total but it is {status}",
  "The order's referral reward was posted {rewards} time(s) and reversed {reversals} time(s) while it is {status}",
  'The order records {settled} wei of overpayment settled but its refunds and credits add up to {parts} wei',
  'The order records {settled} of overpayment settled but its refunds and credits add up to {parts}',
  "The order's overpayment credits add up to {credited}, more than the {settled} of overpayment they settled",
  'The order settled {settled} of overpayment but was overpaid {overpaid} (a payment left the chain after it was refunded or credited)',
  'The order holds none of the package but its movements took {took}',
  'The order holds {qty} of the package but its movements took {took}',
  'The cashout of {amount} ({status}) has ledger entries summing to {ledger}',
  "A refund of {amount} ({asset}'s smallest units) does not match its transfer ({status}, {paid})",
  'The package has {stock} in stock but its movements add up to {logged}',
  // The chain (chain-checks.ts) and the checks across subjects (global-checks.ts).
  "A counted transfer's block {block} is {state}, not {hash}",
  "A verified payout's block {block} is {state}: the cashout is PAID with nothing sent",
  "A verified payout's block {block} is {state}: the refund is PAID with nothing sent",
  "A refunded transfer's block {block} is {state}: its refund gives back ETH that did not arrive",
  'A transfer with {confirmations} confirmations has been waiting since {since} without being settled',
  "Block {block}'s unexplained inflow may be the transfer later found through a contract in it: settle one of them, not both",
  'One transaction was accepted for {count} payouts',
  'Tag {tag} is held by {count} orders',
  // The audit log's hash chain (global-checks.ts, events/audit.ts).
  'Audit entry {seq}, the last one the previous report saw, is gone',
  'Audit entry {seq}, the last one the previous report saw, was changed',
  'Audit entry {seq} is missing',
  'Audit entries {first} to {last} are missing',
  'Audit entry {seq} does not follow the entry before it (its prevHash differs)',
  'Audit entry {seq} was changed after it was written (its hash differs)',
  // Deposit addresses, in ETH and in tokens (deposit-checks.ts, quiet-deposits.ts, token-deposit-checks.ts).
  'The deposit address holds {balance} ETH after block {block} but its unswept deposits add up to {recorded} ETH: {missing} ETH recorded is not there',
  'The deposit address holds {balance} ETH after block {block}, {extra} ETH more than its unswept deposits ({recorded} ETH): ETH arrived that the shop did not record',
  "The deposit address holds {balance} ETH after block {block} and the shop recorded nothing unswept there: ETH arrived that the indexer did not see (through a contract, after the address's watch ended)",
  'The deposit address holds {balance} after block {block} but its unswept {asset} deposits add up to {recorded}: {missing} recorded is not there',
  'The deposit address holds {balance} after block {block}, {extra} more than its unswept {asset} deposits ({recorded}): {asset2} arrived that the shop did not record',
  // The sweeper's records (sweep-checks.ts, token-sweep-checks.ts).
  'The token sweep is CONFIRMED without the {asset} its address moved',
  'The sweep moved {moved} from the deposit address but the {asset} deposits it marked there add up to {marked}',
  'The {asset} deposit is marked swept by a sweep that did not move {asset2} from its address',
  'The deposit is marked swept by a sweep that is {status}, not CONFIRMED',
  'The sweep is CONFIRMED but {count} of its addresses have no amount flushed recorded',
  'The sweep records {recorded} ETH swept but its addresses flushed {flushed} ETH',
  'The sweep is mined but not confirmed: {reason}',
  'The sweep flushed {flushed} ETH from the deposit address but the deposits it marked there add up to {marked} ETH',
  "The confirmed sweep's block {block} is now {now}, not {hash}: its deposits are marked swept by a transaction the chain dropped",
  "The confirmed sweep's block {block} is not on the chain, not {hash}: its deposits are marked swept by a transaction the chain dropped",
  "The receiving address's {asset} rose {rose} in block {block} (with what it sent), less than the {swept} the token sweeps of that block moved there",
  // The `checked` line's words (chain-checks.ts).
  'not checked: indexing is halted ({reason})',
] as const;

export type ReconcileCatalogue = {
  exact: Record<(typeof RECONCILE_EXACT)[number], string>;
  templates: Record<(typeof RECONCILE_TEMPLATES)[number], Translation>;
};

/** Where a block is now, as chain-checks.ts writes it: on the chain with another hash (`now`), or not on it. */
export function blockState(state: string | undefined): { now: string } | { gone: true } {
  return state?.startsWith('now ') ? { now: state.slice('now '.length) } : { gone: true };
}
