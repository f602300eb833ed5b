/**
 * Why a transfer is where it is: the reasons a payment carries (shown on the pay page,
 * the admin's Payments page and in webhooks), in one place. Settlement (settle.ts), the
 * verifier, the transfer rules and the order lifecycle name them from here.
 */

export const NOT_FOUND = 'Transaction not found on chain';
export const NEVER_MINED = 'Transaction was never mined';
/** A transaction sent to another contract, on a node that could not trace what it passed on. */
export const UNTRACEABLE =
  "Not sent to the shop's receiving address, and the node cannot trace what the contract it went to passed on (any ETH that reached the shop is listed for an admin as an unexplained inflow)";
/** A transaction that paid the shop in several calls (a batch): its tags cannot be told apart. */
export const SEVERAL_CALLS = 'It paid the shop in several calls of one transaction (a batch), whose tags cannot be told apart; an admin will assign or refund it';

export const DUST = 'Worth less than a cent: it pays no order; an admin will refund it';
export const NO_MATCHING_ORDER = 'No open order matches this amount; an admin will assign or refund it';
export const MINED_BEFORE_ORDER = 'Mined before the order was placed; an admin will assign or refund it';

/** An order deleted or cancelled while a transfer to it was on its way: the transfer waits for an admin. */
export const ORDER_DELETED = 'Its order was deleted; an admin will assign or refund it';
export const LONG_AFTER_WINDOW = "Sent to this order's deposit address long after its payment window closed: it no longer pays the order; an admin will refund it";
export const ORDER_CANCELLED = 'Its order was cancelled; an admin will refund it';
/** A token sent to the receiving address: a token pays by the order's deposit address, so it names no order. */
export const tokenToReceiving = (asset: string) => `${asset} sent to the shop's receiving address names no order (a ${asset} payment goes to the order's deposit address); an admin will assign or refund it`;
