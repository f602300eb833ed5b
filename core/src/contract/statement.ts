/** The unit every balance and every statement amount is kept in. */
export const BALANCE_CURRENCY = 'USD';

export const LEDGER_KINDS = ['DAILY_CREDIT', 'REFERRAL_REWARD', 'REFERRAL_REVERSAL', 'EXCHANGE', 'CASHOUT', 'ADMIN_ADJUSTMENT', 'OVERPAYMENT_CREDIT'] as const;
export type LedgerKindJson = (typeof LEDGER_KINDS)[number];

