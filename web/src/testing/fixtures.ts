import type { AdminUserListItem, OrderJson, ProductJson, RefundJson, UserJson } from '@shop/core/contract';

export function makeProduct(overrides: Partial<ProductJson> = {}): ProductJson {
  return {
    _id: 'p1',
    name: 'Gold Package',
    image: '/images/gold.svg',
    description: 'A gold package with a daily credit.',
    price: 249.5,
    rating: 4.5,
    numReviews: 12,
    countInStock: 3,
    dailyCredit: 6,
    durationDays: 30,
    publishedAt: '2026-01-01T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeUser(overrides: Partial<UserJson> = {}): UserJson {
  return {
    _id: 'u1',
    name: 'Alice Buyer',
    email: 'alice@example.com',
    isAdmin: false,
    activeBalance: 25.5,
    passiveBalance: 10,
    referralCode: 'ALICE7',
    referralCommand: [],
    referralCount: 0,
    ...overrides,
  };
}

export function makeListUser(overrides: Partial<AdminUserListItem> = {}): AdminUserListItem {
  const { referralCommand: _unused, ...user } = makeUser();
  return { ...user, createdAt: '2026-01-01T00:00:00.000Z', ...overrides };
}

export function makeOrder(overrides: Partial<OrderJson> = {}): OrderJson {
  return {
    _id: 'o1',
    user: 'u1',
    status: 'PAID',
    isPaid: true,
    createdAt: '2026-03-04T10:20:30.000Z',
    paidAt: '2026-03-04T11:00:00.000Z',
    expiresAt: '2026-04-03T23:30:00.000Z',
    paymentDeadline: null,
    itemsPrice: 249.5,
    totalPrice: 249.5,
    paidUsd: 249.5,
    orderedItems: [{ name: 'Gold Package', image: '/images/gold.svg', price: 249.5, qty: 1, product: 'p1' }],
    ...overrides,
  };
}

/** A requested refund of part of order o1's overpayment, to the sender. */
export function makeRefund(overrides: Partial<RefundJson> = {}): RefundJson {
  return {
    _id: 'r1',
    source: 'OVERPAYMENT',
    order: 'o1',
    txHash: `0x${'ab'.repeat(32)}`,
    user: null,
    wallet: '0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1',
    walletSource: 'sender',
    asset: 'ETH',
    amount: '1000000000000000',
    amountText: '0.001000 ETH',
    amountWei: '1000000000000000',
    amountEth: '0.001000',
    amountUsd: 3,
    status: 'REQUESTED',
    payoutTxHash: null,
    check: null,
    heldBy: null,
    createdAt: '2026-03-05T10:00:00.000Z',
    paidAt: null,
    ...overrides,
  };
}

/** Stores a signed-in user the way the app does after login. */
export function signIn(user: Partial<UserJson> = {}): UserJson {
  const full = makeUser(user);
  window.localStorage.setItem('userInfo', JSON.stringify(full));
  return full;
}
