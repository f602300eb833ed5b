import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApprovalJson } from '@shop/core/contract';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const approval = (over: Partial<ApprovalJson>): ApprovalJson => ({
  _id: 'ap1',
  kind: 'PAYOUT',
  status: 'PENDING',
  subject: { type: 'cashout', id: 'c1' },
  beneficiary: { _id: 'u1', name: 'Buyer', email: 'buyer@example.com' },
  amountUsd: 700,
  reason: 'The buyer confirmed the wallet by phone',
  wallet: null,
  change: null,
  package: null,
  requestedBy: { _id: 'a2', email: 'grace@example.com' },
  decidedBy: null,
  decidedAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

describe('ApprovalsPage', () => {
  it('lists what waits; another admin\'s request can be approved, one\'s own only withdrawn', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const { sent } = mockApi({
      'GET /api/users/2fa': { on: false, totp: false, passkeys: [], recoveryCodesLeft: 0, required: false },
      'GET /api/admin/approvals': [
        approval({}),
        approval({ _id: 'ap2', kind: 'BALANCE_INCREASE', subject: { type: 'user', id: 'u2' }, amountUsd: 600, change: { active: '600.00', passive: '0.00' }, requestedBy: { _id: 'a1', email: 'ada@example.com' } }),
      ],
      'POST /api/admin/approvals/ap1/approve': approval({ status: 'APPROVED' }),
      'POST /api/admin/approvals/ap2/withdraw': reply(200, approval({ _id: 'ap2', status: 'REJECTED' })),
    });
    renderApp('/admin/approvals');
    const table = await screen.findByRole('table');
    const [payout, increase] = within(table).getAllByRole('row').slice(1);
    expect(within(payout!).getByText('Cashout payout')).toBeInTheDocument();
    expect(within(payout!).getByText('USD $700.00')).toBeInTheDocument();
    expect(within(payout!).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(increase!).getByText('Balance increase')).toBeInTheDocument();
    expect(within(increase!).getByText('active +$600.00')).toBeInTheDocument();
    expect(within(increase!).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(within(increase!).queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
    expect(within(increase!).getByText('Your request: another admin approves it')).toBeInTheDocument();
    expect(sent('GET /api/admin/approvals')[0]?.path).toContain('status=PENDING');

    expect(within(payout!).getByText('The buyer confirmed the wallet by phone')).toBeInTheDocument();

    // Approving asks first, saying what it does and why it was asked; Cancel sends nothing.
    await userEvent.click(within(payout!).getByRole('button', { name: 'Approve' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Approve this request?' });
    expect(confirm).toHaveTextContent(
      'The cashout of USD $700.00 to buyer@example.com may then be sent and marked paid. Asked by grace@example.com: The buyer confirmed the wallet by phone.',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent('POST /api/admin/approvals/ap1/approve')).toHaveLength(0);
    await userEvent.click(within(payout!).getByRole('button', { name: 'Approve' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Approve this request?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(sent('POST /api/admin/approvals/ap1/approve')).toHaveLength(1));
    expect(await screen.findByText('Approved. The payout can be sent and marked paid.')).toBeInTheDocument();
    await userEvent.click(within(increase!).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(sent('POST /api/admin/approvals/ap2/withdraw')).toHaveLength(1));
    expect(await screen.findByText('Request withdrawn.')).toBeInTheDocument();
  });

  it("shows a package's terms; rejecting another admin's request asks for a second factor first, then goes through", async () => {
    signIn({ _id: 'a1', isAdmin: true });
    let asked = 0;
    const { sent } = mockApi({
      'GET /api/users/2fa': { on: true, totp: true, passkeys: [], recoveryCodesLeft: 10, required: true },
      'GET /api/admin/approvals': [
        approval({
          _id: 'ap3', kind: 'PACKAGE', subject: { type: 'product', id: 'p1' }, beneficiary: null, amountUsd: 14970,
          package: { name: 'Penny Package', publish: false, price: '0.01', dailyCredit: '499.00', durationDays: 30, was: { price: '49.90', dailyCredit: '1.25', durationDays: 30 }, stockAdded: 5,
            countInStock: 7, stockOnceApproved: 12, stockPaysUsd: '179640.00' },
        }),
      ],
      'POST /api/admin/approvals/ap3/reject': () => (asked++ === 0 ? reply(403, { message: 'Confirm it is you: enter a code from your authenticator app.', stepUpRequired: true }) : approval({ _id: 'ap3', status: 'REJECTED' })),
      'POST /api/users/2fa/step-up': { message: 'Confirmed' },
    });
    renderApp('/admin/approvals');
    const table = await screen.findByRole('table');
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(within(row!).getByRole('link', { name: 'Package change: Penny Package' })).toHaveAttribute('href', '/admin/products/p1/edit');
    expect(within(row!).getByText('$499.00 a day for 30 days, price $0.01 (was $1.25 a day for 30 days, price $49.90), stock 12 (+5), paying $179640.00 in all')).toBeInTheDocument();
    expect(within(row!).getByText('USD $14970.00 per package')).toBeInTheDocument();
    await userEvent.click(within(row!).getByRole('button', { name: 'Reject' }));
    // The dialog is loaded when first needed.
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await userEvent.type(within(dialog).getByLabelText('Authentication code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(sent('POST /api/admin/approvals/ap3/reject')).toHaveLength(2));
    expect(sent('POST /api/users/2fa/step-up')[0]?.body).toEqual({ code: '123456' });
    expect(await screen.findByText('Request rejected.')).toBeInTheDocument();
  });

  it('shows the server\'s refusal (self-approval) as it is', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    mockApi({
      'GET /api/users/2fa': { on: false, totp: false, passkeys: [], recoveryCodesLeft: 0, required: false },
      'GET /api/admin/approvals': [approval({ beneficiary: null })],
      'POST /api/admin/approvals/ap1/approve': reply(403, { message: 'You cannot approve your own request: another admin must.' }),
    });
    renderApp('/admin/approvals');
    const table = await screen.findByRole('table');
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(within(row!).getByText('the sender', { exact: true })).toBeInTheDocument();
    await userEvent.click(within(row!).getByRole('button', { name: 'Approve' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('You cannot approve your own request: another admin must.')).toBeInTheDocument();
  });
});
