export const CASHOUT_STATUSES = ['REQUESTED', 'NOTIFIED', 'PAID', 'REJECTED'] as const;
export type CashoutStatus = (typeof CASHOUT_STATUSES)[number];

