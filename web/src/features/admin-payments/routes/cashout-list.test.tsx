import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { orderReference, type CashoutJson, type PayoutCheckJson, type RefundJson } from '@shop/core/contract';
import { pollWhileChecking } from '../api/get-cashouts';
import { makeRefund, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const HASH = `0x${'ab'.repeat(32)}`;
const OTHER_HASH = `0x${'cd'.repeat(32)}`;
const BUYER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

function makeCashout(overrides: Partial<CashoutJson> = {}): CashoutJson {
  return {
    _id: 'c1',
    user: { _id: 'u1', name: 'Alice Buyer', email: 'alice@example.com' },
    wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    amountUsd: 30,
    ethUsd: '3000.00000000',
    amountEth: '0.010000',
    status: 'REQUESTED',
    holdUntil: null,
    payoutTxHash: null,
    check: null,
    heldBy: null,
    approval: { needed: false, current: null },
    paidAt: null,
    createdAt: '2026-05-06T10:00:00.000Z',
    updatedAt: '2026-05-06T10:00:00.000Z',
    ...overrides,
  };
}

function makeCheck(overrides: Partial<PayoutCheckJson> = {}): PayoutCheckJson {
  return { txHash: OTHER_HASH, status: 'CHECKING', reason: 'It has 1 of 12 confirmations', seen: true, createdAt: '2026-05-07T10:00:00.000Z', ...overrides };
}

/** Bob's refund, on top of the shared fixture's. */
const BOB_REFUND: Partial<RefundJson> = {
  order: '5b0c2f8e-9d0a-4a7e-9f3c-1d2e3f4a5b6c',
  txHash: `0x${'1f'.repeat(32)}`,
  user: { _id: 'u2', name: 'Bob Buyer', email: 'bob@example.com' },
  wallet: BUYER,
  createdAt: '2026-05-08T10:00:00.000Z',
};

const cashouts = [
  makeCashout(),
  makeCashout({ _id: 'c2', status: 'PAID', payoutTxHash: HASH, createdAt: '2026-05-01T00:00:00.000Z' }),
];

function rows(table = 'Cashout requests') {
  return within(screen.getByRole('table', { name: table })).getAllByRole('row').slice(1) as HTMLElement[];
}

function renderList(extra: Record<string, unknown> = {}) {
  signIn({ _id: 'a1', isAdmin: true });
  const api = mockApi({ 'GET /api/admin/cashouts': cashouts, 'GET /api/admin/refunds': [], ...extra });
  renderApp('/admin/cashouts');
  return api;
}

describe('CashoutListPage', () => {
  it('a cashout held for a wallet new to its account says until when, and can only be rejected', async () => {
    renderList({ 'GET /api/admin/cashouts': [makeCashout({ _id: 'c9', status: 'HELD', holdUntil: '2026-05-07T10:00:00.000Z' })] });
    await screen.findByRole('table', { name: 'Cashout requests' });
    const [held] = rows();
    expect(within(held!).getByText('Held')).toBeInTheDocument();
    expect(within(held!).getByText('A wallet new to the account: waits until 2026-05-07 10:00 UTC')).toBeInTheDocument();
    expect(within(held!).queryByRole('button', { name: 'Mark Paid' })).not.toBeInTheDocument();
    expect(within(held!).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
  });

  it('lists the requests; only open ones can be marked paid or rejected', async () => {
    renderList();
    const table = await screen.findByRole('table', { name: 'Cashout requests' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 8)).toEqual(['ID', 'USER', 'WALLET', 'AMOUNT', 'ETH', 'STATUS', 'DATE', 'PAYOUT']);

    const [open, paid] = rows();
    expect(within(open!).getByText('Alice Buyer')).toBeInTheDocument();
    expect(within(open!).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(open!).getByText('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBeInTheDocument();
    expect(within(open!).getByText('USD $30.00')).toBeInTheDocument();
    expect(within(open!).getByText('0.010000')).toBeInTheDocument();
    expect(within(open!).getByText('Waiting to be paid')).toBeInTheDocument();
    expect(within(open!).getByText('2026-05-06')).toBeInTheDocument();
    expect(within(open!).getByRole('button', { name: 'Mark Paid' })).toBeInTheDocument();
    expect(within(open!).getByRole('button', { name: 'Reject' })).toBeInTheDocument();

    expect(within(paid!).getByText('Paid')).toBeInTheDocument();
    expect(within(paid!).getByTitle(HASH)).toBeInTheDocument();
    expect(within(paid!).queryByRole('button')).not.toBeInTheDocument();
  });

  it("reads a cashout the operator was e-mailed about as waiting to be paid, like a new one: the internal word 'Notified' is not shown", async () => {
    renderList({ 'GET /api/admin/cashouts': [makeCashout(), makeCashout({ _id: 'c3', status: 'NOTIFIED' })] });
    await screen.findByRole('table', { name: 'Cashout requests' });
    const [requested, notified] = rows();
    expect(within(requested!).getByText('Waiting to be paid')).toBeInTheDocument();
    expect(within(notified!).getByText('Waiting to be paid')).toBeInTheDocument();
    expect(within(notified!).getByRole('button', { name: 'Mark Paid' })).toBeInTheDocument();
    expect(screen.queryByText(/notified/i)).not.toBeInTheDocument();
  });

  it("'Mark Paid' asks for the payout hash and posts it; the toast says it is being verified, not paid", async () => {
    const { sent } = renderList({
      'POST /api/admin/cashouts/c1/paid': reply(202, makeCashout({ check: makeCheck({ txHash: HASH, reason: 'Waiting for the worker to read it' }) })),
    });
    await screen.findByRole('table', { name: 'Cashout requests' });
    await userEvent.click(within(rows()[0]!).getByRole('button', { name: 'Mark Paid' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Payout tx hash' }), HASH);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Cashout payout submitted. Its transaction is being verified on chain.')).toBeInTheDocument();
    expect(sent('POST /api/admin/cashouts/c1/paid')[0]?.body).toEqual({ payoutTxHash: HASH });
    expect(sent('GET /api/admin/cashouts').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the server's message when marking paid fails", async () => {
    renderList({ 'POST /api/admin/cashouts/c1/paid': reply(409, { message: 'Cashout is already settled' }) });
    await screen.findByRole('table', { name: 'Cashout requests' });
    await userEvent.click(within(rows()[0]!).getByRole('button', { name: 'Mark Paid' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Payout tx hash' }), HASH);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Cashout is already settled')).toBeInTheDocument();
  });

  it("rejects only after 'Are you sure'", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { sent } = renderList({ 'POST /api/admin/cashouts/c1/reject': makeCashout({ status: 'REJECTED' }) });
    await screen.findByRole('table', { name: 'Cashout requests' });

    await userEvent.click(within(rows()[0]!).getByRole('button', { name: 'Reject' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure');
    expect(sent('POST /api/admin/cashouts/c1/reject')).toHaveLength(0);

    await userEvent.click(within(rows()[0]!).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Cashout rejected. The amount is back in the active balance.')).toBeInTheDocument();
    expect(sent('POST /api/admin/cashouts/c1/reject')).toHaveLength(1);
  });

  it('shows a red alert when the list fails to load', async () => {
    renderList({ 'GET /api/admin/cashouts': reply(403, { message: 'Not authorized as an admin' }) });
    expect(await screen.findByText('Error: Not authorized as an admin')).toBeInTheDocument();
  });

  it('shows the check of the hash given: checking (no actions until the verdict), refused in red with Mark Paid offered again', async () => {
    renderList({
      'GET /api/admin/cashouts': [
        makeCashout({ check: makeCheck() }),
        makeCashout({ _id: 'c3', check: makeCheck({ status: 'REFUSED', reason: 'It sent 0.005000 ETH, short of the 0.010000 ETH due' }) }),
      ],
    });
    await screen.findByRole('table', { name: 'Cashout requests' });
    const [checking, refused] = rows();

    expect(within(checking!).getByText('Checking 0xcdcdcd…cdcdcd: It has 1 of 12 confirmations')).toBeInTheDocument();
    expect(within(checking!).queryByRole('button')).not.toBeInTheDocument();

    const verdict = within(refused!).getByText('Refused 0xcdcdcd…cdcdcd: It sent 0.005000 ETH, short of the 0.010000 ETH due');
    expect(verdict.closest('p')).toHaveClass('text-destructive');
    expect(verdict.closest('p')).toHaveAttribute('title', OTHER_HASH);
    expect(within(refused!).getByRole('button', { name: 'Mark Paid' })).toBeInTheDocument();
  });

  it("offers to withdraw a hash the node never showed, after asking; never one it has seen", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const unseen = makeCheck({ seen: false, reason: 'Transaction not found on chain' });
    const { sent } = renderList({
      'GET /api/admin/cashouts': [makeCashout({ check: unseen }), makeCashout({ _id: 'c3', check: makeCheck() })],
      'DELETE /api/admin/cashouts/c1/paid': makeCashout({ check: { ...unseen, status: 'REFUSED', reason: 'Withdrawn by an admin: the node never showed this transaction' } }),
    });
    await screen.findByRole('table', { name: 'Cashout requests' });
    const [never, seen] = rows();
    expect(within(seen!).queryByRole('button')).not.toBeInTheDocument();
    await userEvent.click(within(never!).getByRole('button', { name: 'Withdraw hash' }));
    expect(confirm).toHaveBeenCalledWith('Withdraw this hash? Only if it is wrong: a payout sent with it must never be paid again.');
    expect(sent('DELETE /api/admin/cashouts/c1/paid')).toHaveLength(0);
    await userEvent.click(within(never!).getByRole('button', { name: 'Withdraw hash' }));
    expect(await screen.findByText('Hash withdrawn. Mark the right transaction paid.')).toBeInTheDocument();
    expect(sent('DELETE /api/admin/cashouts/c1/paid')).toHaveLength(1);
  });

  it('a cashout held by a replaced payout sent through a contract offers only to withdraw the hold', async () => {
    vi.spyOn(window, 'confirm').mockReturnValueOnce(true);
    const { sent } = renderList({
      'GET /api/admin/cashouts': [makeCashout({ check: makeCheck({ status: 'REFUSED', reason: 'It sent nothing to the requested wallet' }), heldBy: HASH })],
      'DELETE /api/admin/cashouts/c1/paid': makeCashout(),
    });
    await screen.findByRole('table', { name: 'Cashout requests' });
    const [row] = rows();
    expect(within(row!).getByText('Held by 0xababab…ababab: a replaced payout sent through a contract, which may still run.')).toBeInTheDocument();
    expect(within(row!).queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
    expect(within(row!).queryByRole('button', { name: 'Mark Paid' })).not.toBeInTheDocument();
    await userEvent.click(within(row!).getByRole('button', { name: 'Withdraw hold' }));
    expect(await screen.findByText('Hold withdrawn.')).toBeInTheDocument();
    expect(sent('DELETE /api/admin/cashouts/c1/paid')).toHaveLength(1);
  });

  it('polls the list only while a payout is being checked', () => {
    expect(pollWhileChecking([makeCashout(), makeCashout({ check: makeCheck() })])).toBe(4000);
    expect(pollWhileChecking([makeCashout({ check: makeCheck({ status: 'REFUSED' }) })])).toBe(false);
    expect(pollWhileChecking(undefined)).toBe(false);
  });

  it('lists the refunds to pay, and marks a requested one paid with its payout hash', async () => {
    const { sent } = renderList({
      'GET /api/admin/refunds': [
        makeRefund(BOB_REFUND),
        makeRefund({
          ...BOB_REFUND,
          _id: 'r2',
          source: 'TRANSFER',
          order: null,
          user: null,
          walletSource: 'admin',
          amountUsd: null,
          status: 'PAID',
          payoutTxHash: HASH,
          check: makeCheck({ txHash: HASH, status: 'ACCEPTED', reason: null }),
        }),
      ],
      'POST /api/admin/refunds/r1/paid': reply(202, makeRefund({ ...BOB_REFUND, check: makeCheck() })),
    });
    const section = await screen.findByRole('region', { name: 'Refunds' });
    const table = await within(section).findByRole('table', { name: 'Refunds' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 9)).toEqual(['DATE', 'SOURCE', 'ORDER', 'BUYER', 'WALLET', 'AMOUNT', 'USD', 'STATUS', 'PAYOUT']);

    const [open, paid] = rows('Refunds');
    expect(within(open!).getByText('2026-05-08')).toBeInTheDocument();
    expect(within(open!).getByText('Overpayment')).toBeInTheDocument();
    // The order by its reference, opening the admin's order page.
    expect(within(open!).getByRole('link', { name: orderReference('5b0c2f8e-9d0a-4a7e-9f3c-1d2e3f4a5b6c') })).toHaveAttribute(
      'href',
      '/admin/order/5b0c2f8e-9d0a-4a7e-9f3c-1d2e3f4a5b6c',
    );
    expect(within(open!).getByText('Bob Buyer')).toBeInTheDocument();
    expect(within(open!).getByText(BUYER)).toBeInTheDocument();
    expect(within(open!).getByText('The sender')).toBeInTheDocument();
    expect(within(open!).getByText('0.001000 ETH')).toBeInTheDocument();
    expect(within(open!).getByText('USD $3.00')).toBeInTheDocument();
    expect(within(open!).getByText('Waiting to be paid')).toBeInTheDocument();

    expect(within(paid!).getByText('Transfer')).toBeInTheDocument();
    expect(within(paid!).getByText('Named by an admin')).toBeInTheDocument();
    expect(within(paid!).getByText('Paid')).toBeInTheDocument();
    expect(within(paid!).getByTitle(HASH)).toHaveTextContent('0xababab…ababab');
    expect(within(paid!).queryByRole('button')).not.toBeInTheDocument();

    await userEvent.click(within(open!).getByRole('button', { name: 'Mark Paid' }));
    await userEvent.type(within(open!).getByRole('textbox', { name: 'Payout tx hash' }), OTHER_HASH);
    await userEvent.click(within(open!).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Refund payout submitted. Its transaction is being verified on chain.')).toBeInTheDocument();
    expect(sent('POST /api/admin/refunds/r1/paid')[0]?.body).toEqual({ payoutTxHash: OTHER_HASH });
    expect(sent('GET /api/admin/refunds').length).toBeGreaterThanOrEqual(2);
  });
});

describe('a large payout', () => {
  it("offers 'Ask approval' instead of 'Mark Paid' until a second admin approved it, then 'Awaiting' while pending", async () => {
    const large = makeCashout({ _id: 'c9', amountUsd: 700, approval: { needed: true, current: null } });
    const { sent } = renderList({
      'GET /api/admin/cashouts': [large],
      'POST /api/admin/approvals': reply(201, { _id: 'ap1', status: 'PENDING' }),
    });
    const [row] = await waitForRows();
    expect(within(row!).queryByRole('button', { name: 'Mark Paid' })).not.toBeInTheDocument();
    expect(within(row!).getByText('Needs a second admin')).toBeInTheDocument();
    await userEvent.click(within(row!).getByRole('button', { name: 'Ask approval' }));
    // It asks why: an empty reason is refused in place, nothing sent.
    const dialog = await screen.findByRole('dialog', { name: 'Ask a second admin to approve this cashout' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ask approval' }));
    expect(within(dialog).getByText('Reason is required: say why the second admin should approve it')).toBeInTheDocument();
    expect(sent('POST /api/admin/approvals')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Regular buyer, wallet confirmed by phone');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ask approval' }));
    await waitFor(() => expect(sent('POST /api/admin/approvals')).toHaveLength(1));
    expect(sent('POST /api/admin/approvals')[0]?.body).toEqual({ kind: 'cashout', id: 'c9', reason: 'Regular buyer, wallet confirmed by phone' });
    expect(await screen.findByText('Asked. Another admin approves it on the Approvals page.')).toBeInTheDocument();
  });

  it('shows the wait while pending, and Mark Paid once approved', async () => {
    renderList({
      'GET /api/admin/cashouts': [
        makeCashout({ _id: 'c8', amountUsd: 700, approval: { needed: true, current: { _id: 'ap1', status: 'PENDING', requestedBy: 'a1' } } }),
        makeCashout({ _id: 'c7', amountUsd: 800, approval: { needed: true, current: { _id: 'ap2', status: 'APPROVED', requestedBy: 'a2' } } }),
      ],
    });
    const [pending, approved] = await waitForRows();
    expect(within(pending!).getByText("Awaiting a second admin's approval")).toBeInTheDocument();
    expect(within(pending!).queryByRole('button', { name: 'Mark Paid' })).not.toBeInTheDocument();
    expect(within(pending!).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
    expect(within(approved!).getByRole('button', { name: 'Mark Paid' })).toBeInTheDocument();
  });
});

async function waitForRows() {
  await screen.findByRole('table', { name: 'Cashout requests' });
  return rows();
}
