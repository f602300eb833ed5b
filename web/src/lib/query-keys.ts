/**
 * Every TanStack Query key of the web app, in one place. A key is a prefix of the keys
 * below it, and invalidating a prefix marks everything under it stale: a mutation in one
 * feature refreshes what another feature shows (an order deleted or a transfer assigned
 * by an admin refreshes the admin's order page; a cashout refreshes the profile) through
 * these keys, without the features importing each other. A query appends its parameters
 * (a list's filters, a range) to its key where it is used.
 */

/** Every order query (the admin's list and order page, the buyer's list, one order) sits under this key. */
export const ordersQueryKey = ['orders'] as const;
export const orderListQueryKey = [...ordersQueryKey, 'list'] as const;
export const myOrdersQueryKey = [...ordersQueryKey, 'mine'] as const;
export const orderQueryKey = (id: string) => [...ordersQueryKey, 'detail', id] as const;
/** Under the orders key: a delete, an assignment or a refund request refreshes it with the lists. */
export const adminOrderQueryKey = (id: string) => [...ordersQueryKey, 'admin', id] as const;

/** Every user query (list, details, profile) sits under this key. */
export const usersQueryKey = ['users'] as const;
export const userListQueryKey = [...usersQueryKey, 'list'] as const;
export const userQueryKey = (id: string) => [...usersQueryKey, 'detail', id] as const;
export const profileQueryKey = [...usersQueryKey, 'profile'] as const;
/** Under the profile's key: whatever changes the balance (exchange, cashout) marks these stale too. */
export const statementQueryKey = [...profileQueryKey, 'statement'] as const;
export const myCashoutsQueryKey = [...profileQueryKey, 'cashouts'] as const;

export const twoFactorQueryKey = ['two-factor'] as const;
/** Whose a referral code is (the register page). */
export const referrerQueryKey = (referralCode: string) => ['referrer', referralCode] as const;

/** The storefront's packages; the admin's under it, so creating, editing, publishing or deleting a package refreshes both. */
export const productsQueryKey = ['products'] as const;
export const productQueryKey = (id: string) => [...productsQueryKey, id] as const;
export const adminProductsQueryKey = [...productsQueryKey, 'admin'] as const;
export const adminProductQueryKey = (id: string) => [...adminProductsQueryKey, 'detail', id] as const;

export const adminPaymentsQueryKey = ['admin', 'payments'] as const;
/** Under the payments' key: an assignment refreshes what is offered with the list. */
export const assignableOrdersQueryKey = (paymentId: string, q: string) => [...adminPaymentsQueryKey, 'assignable', paymentId, q] as const;
export const cashoutsQueryKey = ['admin', 'cashouts'] as const;
/** Refunds and overpaid orders: a refund request changes both. */
export const refundsQueryKey = ['admin', 'refunds'] as const;
export const refundListQueryKey = [...refundsQueryKey, 'list'] as const;
export const overpaidOrdersQueryKey = [...refundsQueryKey, 'overpaid'] as const;

/** What the pay page's connected wallet holds (ETH for gas, a token), read through the wallet: per address, chain and token. */
export const walletFundsQueryKey = (address: string, chainId: number, token: string) => ['wallet-funds', address, chainId, token] as const;

/** The live ETH price (the pay page and the cashout's estimate share it). */
export const ethPriceQueryKey = ['crypto', 'eth-price'] as const;

export const approvalsQueryKey = ['approvals'] as const;

export const overviewQueryKey = ['admin', 'overview'] as const;
/** What waits for the admin (the Admin menu's counts): a decision or a cashout settled refreshes it. */
export const adminWaitingQueryKey = ['admin', 'waiting'] as const;
export const reconciliationQueryKey = ['admin', 'reconciliation'] as const;
export const auditQueryKey = ['audit'] as const;

export const webhooksQueryKey = ['admin', 'webhooks'] as const;
export const webhookListQueryKey = [...webhooksQueryKey, 'list'] as const;
export const webhookDeliveriesQueryKey = (endpointId: string) => [...webhooksQueryKey, 'deliveries', endpointId] as const;

/** The shop's configuration (its network): asked for once a visit. */
export const shopConfigQueryKey = ['shop-config'] as const;
