import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminOrderDetailJson } from '@shop/core/contract';
import { signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const ID = '7f3a2b10-0000-4000-8000-000000000001';
const TX = `0x${'ab'.repeat(32)}`;
const PAYOUT = `0x${'cd'.repeat(32)}`;

function makeDetail(over: Partial<AdminOrderDetailJson> = {}): AdminOrderDetailJson {
  return {
    _id: ID, reference: 'ORD-FWX2P400', status: 'PAID', isPaid: true, createdAt: '2026-03-04T10:00:00.000Z', paidAt: '2026-03-04T10:05:00.000Z',
    expiresAt: '2026-04-03T10:05:00.000Z', paymentDeadline: '2026-03-04T11:00:00.000Z', deletedAt: null, cancelledAt: null, depositAddress: '0x2b792d027e303ef1df93f2c81ebe21f3004ee77d',
    itemsPrice: 50, totalPrice: 50, paidUsd: 55, overpaidUsd: 5, overpaidSettledUsd: 5,
    items: [{ name: 'Gold Package', image: '/images/gold.svg', price: 25, qty: 2, product: 'p1', dailyCredit: 1.5, durationDays: 30 }],
    buyer: { _id: 'u1', name: 'Bea Buyer', email: 'bea@example.com', deleted: false },
    quotes: { items: [{ _id: 'q1', asset: 'ETH', amount: '16666666666666666', amountText: '0.016666 ETH', unitUsd: '3000.00000000', ethUsd: '3000.00000000', usdAmount: 50, amountWei: '16666666666666666', amountEth: '0.016667', createdAt: '2026-03-04T10:00:00.000Z', expiresAt: '2026-03-04T10:15:00.000Z' }], total: 1 },
    payments: {
      items: [{
        _id: 'pay1', txHash: TX, status: 'COUNTED', source: 'INDEXED', order: ID, from: '0x90f79bf6eb2c4f870365e785982e1f101e93b906', valueWei: '18333333333333333', asset: 'ETH', amount: '18333333333333333', usdValue: 55,
        blockNumber: '123', reason: null, refund: null, createdAt: '2026-03-04T10:04:00.000Z', confirmations: 14, requiredConfirmations: 12, blockHash: null, payer: null, reportedOnly: false,
      }],
      total: 1,
    },
    overpayment: null,
    refunds: {
      items: [{
        _id: 'r1', source: 'OVERPAYMENT', order: ID, txHash: TX, user: { _id: 'u1', name: 'Bea Buyer', email: 'bea@example.com' }, wallet: '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
        walletSource: 'sender', asset: 'ETH', amount: '1666666666666666', amountText: '0.001666 ETH', amountWei: '1666666666666666', amountEth: '0.001667', amountUsd: 5, status: 'PAID', payoutTxHash: PAYOUT, check: null, heldBy: null, createdAt: '2026-03-05T00:00:00.000Z', paidAt: '2026-03-05T01:00:00.000Z',
      }],
      total: 1,
    },
    deliveries: { items: [{ _id: 'd1', type: 'order.paid', subject: `order:${ID}`, endpoint: { _id: 'e1', url: 'https://hooks.example.com/shop' }, status: 'DELIVERED', attempts: 2, lastStatus: 200, lastError: null, createdAt: '2026-03-04T10:05:00.000Z', deliveredAt: '2026-03-04T10:05:02.000Z' }], total: 1 },
    actions: { canDelete: false, deleteBlockedReason: 'Paid orders cannot be deleted', canRefundOverpayment: false },
    ...over,
  };
}

describe('AdminOrderPage', () => {
  it('shows the transfers with their confirmations, the refund with its payout and the deliveries, and why it cannot be deleted', async () => {
    signIn({ isAdmin: true });
    mockApi({ [`GET /api/admin/orders/${ID}`]: makeDetail() });
    renderApp(`/admin/order/${ID}`);

    expect(await screen.findByRole('heading', { name: 'ORD-FWX2P400' })).toBeInTheDocument();
    const transfers = screen.getByRole('region', { name: 'Transfers' });
    expect(within(transfers).getByText(TX)).toBeInTheDocument();
    expect(within(transfers).getByText('12 of 12')).toBeInTheDocument();
    expect(within(transfers).getByText('Counted')).toBeInTheDocument();
    const refunds = screen.getByRole('region', { name: 'Refunds' });
    expect(within(refunds).getByText(PAYOUT)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Webhook deliveries' })).getByText('order.paid')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Buyer' })).getByRole('link', { name: 'Bea Buyer' })).toHaveAttribute('href', '/admin/user/u1/edit');
    // The order's own deposit address, where an exchange's payment for it arrives.
    expect(within(screen.getByRole('region', { name: 'Summary' })).getByText('0x2b792d027e303ef1df93f2c81ebe21f3004ee77d')).toBeInTheDocument();
    const actions = screen.getByRole('region', { name: 'Actions' });
    expect(within(actions).queryByRole('button', { name: 'Delete Order' })).not.toBeInTheDocument();
    expect(within(actions).getByText('Delete Order: Paid orders cannot be deleted.')).toBeInTheDocument();
  });

  it('shows each transfer in its asset: a USDC payment reads 25.00 USDC beside its USD value', async () => {
    signIn({ isAdmin: true });
    const base = makeDetail();
    const usdc = { ...base.payments.items[0]!, _id: 'pay2', txHash: `0x${'ef'.repeat(32)}`, valueWei: null, asset: 'USDC' as const, amount: '25000000', usdValue: 25 };
    mockApi({ [`GET /api/admin/orders/${ID}`]: makeDetail({ payments: { items: [base.payments.items[0]!, usdc], total: 2 } }) });
    renderApp(`/admin/order/${ID}`);
    const transfers = await screen.findByRole('region', { name: 'Transfers' });
    expect(within(transfers).getByText('25.00 USDC (USD $25.00)')).toBeInTheDocument();
    expect(within(transfers).getByText('0.018333 ETH (USD $55.00)')).toBeInTheDocument();
  });

  it("deletes an unpaid order after confirming, with 'Order deleted!', and goes back to the list", async () => {
    signIn({ isAdmin: true });
    const unpaid = makeDetail({ status: 'PENDING_PAYMENT', isPaid: false, payments: { items: [], total: 0 }, refunds: { items: [], total: 0 }, actions: { canDelete: true, deleteBlockedReason: null, canRefundOverpayment: false } });
    const { sent } = mockApi({ [`GET /api/admin/orders/${ID}`]: unpaid, [`DELETE /api/orders/${ID}/delete`]: { message: 'Order deleted' }, 'GET /api/orders': [] });
    const { router } = renderApp(`/admin/order/${ID}`);

    await userEvent.click(await screen.findByRole('button', { name: 'Delete Order' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete order ORD-FWX2P400?' });
    expect(sent(`DELETE /api/orders/${ID}/delete`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Order' }));
    expect(await screen.findByText('Order deleted!')).toBeInTheDocument();
    expect(sent(`DELETE /api/orders/${ID}/delete`)).toHaveLength(1);
    await waitFor(() => expect(router.location.pathname).toBe('/admin/orderlist'));
  });
});
