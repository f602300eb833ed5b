/** HELD: to a wallet the account was never paid to, waiting until its holdUntil; CANCELLED: by the owner, through the e-mail's link. */
export const CASHOUT_STATUSES = ['REQUESTED', 'NOTIFIED', 'PAID', 'REJECTED', 'HELD', 'CANCELLED'] as const;
export type CashoutStatus = (typeof CASHOUT_STATUSES)[number];

