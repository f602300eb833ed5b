import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { orderReference, type MyCashoutJson, type StatementEntryJson } from '@shop/core/contract';
import { makeOrder, makeUser, signIn } from '@/testing/fixtures';
import { byStatus, mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const profile = makeUser({
  referralCode: 'ALICE7',
  referralCommand: [
    { _id: 'u5', name: 'Bob' },
    { _id: 'u6', name: 'Carol' },
  ],
  // The api sends the newest few names and the whole count.
  referralCount: 50000,
  activeBalance: 25.5,
  passiveBalance: 10,
});

const orders = [
  makeOrder({
    _id: 'o1',
    expiresAt: '2026-04-03T23:30:00.000Z',
    orderedItems: [{ name: 'Gold Package', image: '/images/gold.svg', price: 249.5, qty: 1, product: 'p1' }],
  }),
  makeOrder({
    _id: 'o2',
    isPaid: false,
    status: 'PENDING_PAYMENT',
    orderedItems: [{ name: 'Unpaid Package', image: '/images/silver.svg', price: 20, qty: 1, product: 'p2' }],
  }),
];

function renderProfile(extra: Record<string, unknown> = {}) {
  signIn(makeUser({ name: 'Alice Buyer' }));
  const api = mockApi({
    'GET /api/users/profile': profile,
    'GET /api/orders/mine': byStatus(orders),
    'GET /api/users/profile/statement': [],
    'GET /api/users/profile/cashouts': [],
    ...extra,
  });
  const result = renderApp('/profile');
  return { ...api, ...result };
}

/** 'Exchange to Passive Balance', then 'Exchange' in the question it asks. */
async function exchange() {
  await userEvent.click(await screen.findByRole('button', { name: 'Exchange to Passive Balance' }));
  await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: /^Exchange / }));
}

const cashout: MyCashoutJson = {
  _id: 'c1',
  status: 'REQUESTED',
  amountUsd: '40.00',
  wallet: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  payoutTxHash: null,
  paidAt: null,
  holdUntil: null,
  createdAt: '2026-11-20T10:00:00.000Z',
};
const PAID_HASH = `0x${'ab'.repeat(32)}`;
const statement: StatementEntryJson[] = [
  { _id: 'e4', createdAt: '2026-11-22T10:00:00.000Z', kind: 'CASHOUT', account: 'ACTIVE', amount: '-12.00', currency: 'USD', cashout: { ...cashout, _id: 'c0', status: 'PAID', amountUsd: '12.00', payoutTxHash: PAID_HASH } },
  { _id: 'e3', createdAt: '2026-11-21T10:00:00.000Z', kind: 'CASHOUT', account: 'ACTIVE', amount: '-40.00', currency: 'USD', cashout },
  { _id: 'e2', createdAt: '2026-11-20T09:00:00.000Z', kind: 'REFERRAL_REWARD', account: 'ACTIVE', amount: '10.00', currency: 'USD', from: 'Bob' },
  { _id: 'e1', createdAt: '2026-11-19T00:00:00.000Z', kind: 'DAILY_CREDIT', account: 'ACTIVE', amount: '2.50', currency: 'USD', order: { _id: 'o1' } },
];

describe('ProfilePage', () => {
  it('shows the statement with units and where each cashout stands, and the cashout still waiting under the balance', async () => {
    renderProfile({ 'GET /api/users/profile/statement': statement, 'GET /api/users/profile/cashouts': [cashout] });
    const list = await screen.findByRole('list', { name: 'Statement' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^Cashout requested-12\.00 USD.*Paid.*paid by 0xabababab…abababab/),
      expect.stringMatching(/^Cashout requested-40\.00 USD.*Waiting to be paid.*to 0x3C44…93BC/),
      expect.stringMatching(/^Referral reward from Bob\+10\.00 USD/),
      expect.stringMatching(/^Daily package credit\+2\.50 USD/),
    ]);
    expect(within(rows[3]!).getByRole('link', { name: 'o1' })).toHaveAttribute('href', '/order/o1');
    const waiting = screen.getByRole('list', { name: 'Cashouts waiting to be paid' });
    expect(waiting).toHaveTextContent('40.00 USD waiting to be paid to 0x3C44…93BC, requested 2026-11-20');
    // Every balance carries its unit.
    expect(screen.getAllByText('USD').length).toBeGreaterThanOrEqual(2);
  });

  it('a cashout to a new wallet: waiting until its time, under the balance and in the statement; a cancelled one says so', async () => {
    const held: MyCashoutJson = { ...cashout, _id: 'c2', status: 'HELD', amountUsd: '650.00', holdUntil: '2026-11-22T10:00:00.000Z' };
    const cancelled: MyCashoutJson = { ...held, _id: 'c3', status: 'CANCELLED' };
    renderProfile({
      'GET /api/users/profile/statement': [
        { _id: 'e7', createdAt: '2026-11-21T11:00:00.000Z', kind: 'CASHOUT', account: 'ACTIVE', amount: '650.00', currency: 'USD', cashout: cancelled, cashoutReturned: true },
        { _id: 'e6', createdAt: '2026-11-21T10:30:00.000Z', kind: 'CASHOUT', account: 'ACTIVE', amount: '-650.00', currency: 'USD', cashout: cancelled },
        { _id: 'e5', createdAt: '2026-11-21T10:00:00.000Z', kind: 'CASHOUT', account: 'ACTIVE', amount: '-650.00', currency: 'USD', cashout: held },
      ],
      'GET /api/users/profile/cashouts': [held],
    });
    const rows = within(await screen.findByRole('list', { name: 'Statement' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^Cashout cancelled: amount returned\+650\.00 USD/),
      expect.stringMatching(/^Cashout requested-650\.00 USD.*Cancelled/),
      expect.stringMatching(/^Cashout requested-650\.00 USD.*New wallet: held until 2026-11-22/),
    ]);
    expect(screen.getByRole('list', { name: 'Cashouts waiting to be paid' })).toHaveTextContent(
      '650.00 USD waiting to be paid to 0x3C44…93BC, requested 2026-11-20. A wallet new to your account: it waits until 2026-11-22 10:00 UTC, and the e-mail we sent you can cancel it.',
    );
  });

  it('shows the form, the referral tools, the balances and only the paid orders', async () => {
    renderProfile();
    expect(await screen.findByLabelText('Name')).toHaveValue('Alice Buyer');
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Update Profile' })).toBeInTheDocument();

    expect(screen.getByText(`${window.location.origin}/register?ref=ALICE7`)).toBeInTheDocument();
    expect(screen.getByText('ALICE7')).toBeInTheDocument();
    expect(screen.getByText('Referral Command: 50000 person')).toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'Exchange to Passive Balance' })).toBeInTheDocument();
    expect(screen.getByText('10.00')).toBeInTheDocument();
    expect(screen.getByText('25.50')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cashout' })).toHaveAttribute('href', '/profile/cashout');

    const paid = await screen.findByRole('list', { name: 'Paid orders' });
    const items = within(paid).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    const item = items[0] as HTMLElement;
    expect(within(item).getByRole('link', { name: 'Gold Package' })).toHaveAttribute('href', '/product/p1');
    expect(within(item).getByAltText('Gold Package')).toHaveAttribute('src', '/images/gold.svg');
    expect(within(item).getByText('USD $249.50')).toBeInTheDocument();
    expect(within(item).getByText('Expires in')).toBeInTheDocument();
    expect(within(item).getByText('2026-04-03')).toBeInTheDocument();
    expect(within(paid).queryByText('Unpaid Package')).not.toBeInTheDocument();
  });

  it('lists every order in the history, cancelled ones too, and filters it to one state', async () => {
    const cancelled = makeOrder({
      _id: 'o3',
      isPaid: false,
      status: 'CANCELLED',
      orderedItems: [{ name: 'Cancelled Package', image: '/images/bronze.svg', price: 15, qty: 2, product: 'p3' }],
    });
    const { sent } = renderProfile({ 'GET /api/orders/mine': byStatus([...orders, cancelled]) });
    const history = await screen.findByRole('list', { name: 'Order history' });
    expect(within(history).getAllByRole('listitem')).toHaveLength(3);
    expect(within(history).getByText('2 x Cancelled Package')).toBeInTheDocument();
    expect(within(history).getByText('Cancelled')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'Cancelled');
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Order history' })).getAllByRole('listitem')).toHaveLength(1));
    const only = within(screen.getByRole('list', { name: 'Order history' })).getByRole('listitem');
    expect(only).toHaveTextContent('2 x Cancelled Package');
    expect(within(only).getByRole('link', { name: orderReference('o3') })).toHaveAttribute('href', '/order/o3');
    expect(sent('GET /api/orders/mine').some((r) => new URL(r.path, 'http://x').searchParams.get('status') === 'CANCELLED')).toBe(true);

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'Expired');
    expect(await screen.findByText('No expired orders.')).toBeInTheDocument();
  });

  it('lists the unpaid orders apart, each with where it stands and a way back to its pay page', async () => {
    renderProfile();
    const unpaid = await screen.findByRole('list', { name: 'Unpaid orders' });
    const [row] = within(unpaid).getAllByRole('listitem');
    expect(within(row!).getByText('1 x Unpaid Package')).toBeInTheDocument();
    expect(within(row!).getByText('Awaiting payment')).toBeInTheDocument();
    expect(within(row!).getByRole('link', { name: 'Continue to pay' })).toHaveAttribute('href', '/order/o2');
  });

  it('cancels an unpaid order after asking, and it leaves the list', async () => {
    let cancelled = false;
    const { sent } = renderProfile({
      'GET /api/orders/mine': byStatus(() => (cancelled ? [orders[0]!] : orders)),
      'POST /api/orders/o2/cancel': () => {
        cancelled = true;
        return { message: 'Order cancelled', order: { ...orders[1], status: 'CANCELLED' } };
      },
    });
    const unpaid = await screen.findByRole('list', { name: 'Unpaid orders' });
    await userEvent.click(within(unpaid).getByRole('button', { name: 'Cancel order' }));
    const question = within(unpaid).getByRole('group', { name: 'Cancel this order?' });
    // Asked first: "Keep it" changes nothing.
    await userEvent.click(within(question).getByRole('button', { name: 'Keep it' }));
    expect(sent('POST /api/orders/o2/cancel')).toHaveLength(0);
    await userEvent.click(within(unpaid).getByRole('button', { name: 'Cancel order' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, cancel the order' }));
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Unpaid orders' })).not.toBeInTheDocument());
    expect(sent('POST /api/orders/o2/cancel')).toHaveLength(1);
  });

  it("copies the referral link and code and says 'Copy to clipboard'", async () => {
    const user = userEvent.setup();
    renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Copy referral link' }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/register?ref=ALICE7`);
    expect(await screen.findByText('Copy to clipboard')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy referral code' }));
    expect(await navigator.clipboard.readText()).toBe('ALICE7');
  });

  it("sends the form as entered, says 'Profile updated' and replaces the stored user", async () => {
    const updated = { ...profile, name: 'Alice Cooper' };
    const { sent } = renderProfile({ 'PUT /api/users/profile': updated });
    const name = await screen.findByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Alice Cooper');
    // Only a new e-mail or password asks for the current one.
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Password'), 'newpass1');
    await userEvent.type(screen.getByLabelText('Current password'), 'oldpass1');
    await userEvent.click(screen.getByRole('button', { name: 'Update Profile' }));

    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(sent('PUT /api/users/profile')[0]?.body).toEqual({
      _id: 'u1',
      name: 'Alice Cooper',
      email: 'alice@example.com',
      password: 'newpass1',
      currentPassword: 'oldpass1',
    });
    expect(JSON.parse(window.localStorage.getItem('userInfo') ?? 'null')).toEqual(updated);
    expect(screen.getByRole('button', { name: 'Alice Cooper' })).toBeInTheDocument();
  });

  it('says what the passive balance is, and asks before exchanging the whole active balance: Cancel sends nothing', async () => {
    const { sent } = renderProfile({ 'POST /api/users/exchange': { message: 'Balance exchanged!', activeBalance: 0, passiveBalance: 35.5 } });
    expect(await screen.findByText(/Your passive balance stays in your account: it cannot be cashed out to a wallet/)).toBeInTheDocument();
    expect(screen.getByLabelText('Amount to exchange (USD)')).toHaveValue('25.50');
    await userEvent.click(await screen.findByRole('button', { name: 'Exchange to Passive Balance' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Exchange to Passive Balance?' });
    expect(dialog).toHaveTextContent(
      '25.50 USD of your active balance moves to your passive balance. Your active balance will be 0.00 USD and your passive balance 35.50 USD. The passive balance cannot be cashed out, and the exchange cannot be undone.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(sent('POST /api/users/exchange')).toHaveLength(0);
  });

  it('exchanges the amount the shopper chose, says exactly what moves, and sends that amount with a request id', async () => {
    const { sent } = renderProfile({ 'POST /api/users/exchange': { message: 'Balance exchanged!', activeBalance: 15.5, passiveBalance: 20 } });
    const field = await screen.findByLabelText('Amount to exchange (USD)');
    const button = screen.getByRole('button', { name: 'Exchange to Passive Balance' });
    await userEvent.clear(field);
    await userEvent.type(field, '30');
    expect(screen.getByText('At most your active balance, 25.50 USD')).toBeInTheDocument();
    expect(button).toBeDisabled();
    await userEvent.clear(field);
    await userEvent.type(field, '0');
    expect(screen.getByText('Enter an amount above 0.00')).toBeInTheDocument();
    expect(button).toBeDisabled();
    await userEvent.clear(field);
    await userEvent.type(field, '10');
    await userEvent.click(button);
    const dialog = await screen.findByRole('alertdialog', { name: 'Exchange to Passive Balance?' });
    expect(dialog).toHaveTextContent('10.00 USD of your active balance moves to your passive balance. Your active balance will be 15.50 USD and your passive balance 20.00 USD.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Exchange 10.00 USD' }));
    await waitFor(() => expect(sent('POST /api/users/exchange')).toHaveLength(1));
    expect(sent('POST /api/users/exchange')[0]?.body).toEqual({ amount: '10.00', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await screen.findByText('Balance exchanged!')).toBeInTheDocument();
  });

  it("says 'Balance exchanged!' in the page's words (not the server's) and shows the new balances", async () => {
    renderProfile({
      'POST /api/users/exchange': { message: 'Moved 25.50 to the passive balance', activeBalance: 0, passiveBalance: 35.5 },
    });
    await exchange();
    expect(await screen.findByText('Balance exchanged!')).toBeInTheDocument();
    expect(screen.queryByText('Moved 25.50 to the passive balance')).not.toBeInTheDocument();
    expect(screen.getByText('35.50')).toBeInTheDocument();
    expect(screen.getByText('0.00')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('userInfo') ?? 'null')).toMatchObject({
      activeBalance: 0,
      passiveBalance: 35.5,
    });
  });

  it("says 'Balance exchanged!' when the server sent no message", async () => {
    renderProfile({ 'POST /api/users/exchange': { message: '', activeBalance: 0, passiveBalance: 35.5 } });
    await exchange();
    expect(await screen.findByText('Balance exchanged!')).toBeInTheDocument();
  });

  it("shows the server's error, or 'Exchange failed' when the server sent no message", async () => {
    renderProfile({ 'POST /api/users/exchange': reply(400, { message: 'Nothing to exchange' }) });
    await exchange();
    expect(await screen.findByText('Nothing to exchange')).toBeInTheDocument();
  });

  it("falls back to 'Exchange failed' when the server sent no message", async () => {
    renderProfile({ 'POST /api/users/exchange': reply(500, undefined) });
    await exchange();
    expect(await screen.findByText('Exchange failed')).toBeInTheDocument();
  });

  it('forgets the stored user and goes to /login when the session has expired (401)', async () => {
    signIn();
    mockApi({
      'GET /api/users/profile': reply(401, { message: 'Not signed in' }),
      'GET /api/orders/mine': reply(401, { message: 'Not signed in' }),
    });
    const { router } = renderApp('/profile');
    await waitFor(() => expect(router.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.location.search).get('redirect')).toBe('/profile');
    expect(window.localStorage.getItem('userInfo')).toBeNull();
  });
});
