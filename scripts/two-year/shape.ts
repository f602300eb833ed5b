// The shape of the two-year shop: how many of everything at a scale, and the accounts a
// benchmark signs in as. Scale 1 is two years of a busy shop; a smaller scale keeps the
// same shape (who has the most orders or referrals, what is still open) with fewer rows.

/**
 * Bumped whenever the generator writes different data: a template built by another
 * version is rebuilt rather than reused.
 */
export const GENERATOR_VERSION = 2;

export const KNOWN_PASSWORD = 'two-year-shop-password';
export const KNOWN_EMAILS = {
  admin: 'admin@two-year.test',
  buyer: 'buyer@two-year.test',
  referrer: 'referrer@two-year.test',
} as const;

/** User numbers of the known accounts (every other user is numbered after them). */
export const ADMIN_N = 1;
export const BUYER_N = 2;
export const REFERRER_N = 3;

export type Sizes = {
  scale: number;
  users: number;
  /** Users the known referrer brought in. */
  referrals: number;
  packages: number;
  orders: number;
  /** Orders of the known buyer (order numbers 1..bigBuyerOrders). */
  bigBuyerOrders: number;
  /** Unpaid orders still inside their payment window (the highest order numbers). */
  liveOrders: number;
  cashouts: number;
  exchanges: number;
  adjustments: number;
  /** Transfers that matched no order: worth something (some refunded), and dust. */
  strayTransfers: number;
  dustTransfers: number;
  webhookDeliveries: number;
  sessions: number;
};

const at = (base: number, scale: number, floor: number) => Math.max(floor, Math.round(base * scale));

export function sizesFor(scale: number): Sizes {
  if (!(scale > 0 && scale <= 10)) throw new Error(`scale must be above 0 and at most 10, not ${scale}`);
  const users = at(200_000, scale, 60);
  const orders = at(2_000_000, scale, 600);
  return {
    scale,
    users,
    // Floors keep the known accounts the largest of their kind at a tiny scale: every other
    // user has about orders/users orders (at most a few times that) and a handful of referrals.
    referrals: Math.min(users - 10, at(50_000, scale, 30)),
    packages: at(5_000, scale, 10),
    orders,
    bigBuyerOrders: Math.min(Math.floor(orders / 4), at(10_000, scale, 100)),
    liveOrders: at(3_000, scale, 12),
    cashouts: at(80_000, scale, 40),
    exchanges: at(30_000, scale, 10),
    adjustments: at(2_000, scale, 4),
    strayTransfers: at(10_000, scale, 6),
    dustTransfers: at(600_000, scale, 20),
    webhookDeliveries: at(500_000, scale, 40),
    sessions: at(600_000, scale, 50),
  };
}
