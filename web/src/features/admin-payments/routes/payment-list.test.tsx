import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminPaymentJson } from '@shop/core/contract';
import { routes } from '@/app/router';
import { signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderRoutes } from '@/testing/render-app';

const TX = `0x${'1f'.repeat(32)}`;
const REFUND = `0x${'2e'.repeat(32)}`;
const ORDER_ID = '5b0c2f8e-9d0a-4a7e-9f3c-1d2e3f4a5b6c';

const payment: AdminPaymentJson = {
  _id: 'pay1',
  txHash: TX,
  status: 'UNRESOLVED',
  source: 'INDEXED',
  order: null,
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  valueWei: '12345678900000000',
  usdValue: 37.04,
  blockNumber: '123',
  reason: 'No open order carries this tag',
  createdAt: '2026-05-06T10:00:00.000Z',
};

function renderList(list: AdminPaymentJson[], extra: Record<string, unknown> = {}) {
  signIn({ _id: 'a1', isAdmin: true });
  const api = mockApi({ 'GET /api/admin/payments': list, ...extra });
  renderRoutes(routes, '/admin/payments');
  return api;
}

function firstRow() {
  return within(screen.getByRole('table')).getAllByRole('row')[1] as HTMLElement;
}

describe('PaymentListPage', () => {
  it("asks for unresolved and late transfers and says 'No transfers need attention' when there are none", async () => {
    const { sent } = renderList([]);
    expect(await screen.findByText('No transfers need attention')).toBeInTheDocument();
    expect(sent('GET /api/admin/payments')[0]?.path).toBe('/api/admin/payments?status=UNRESOLVED%2CLATE');
  });

  it('lists hash, sender, ETH and USD value, status, reason and date', async () => {
    renderList([payment]);
    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 7)).toEqual(['TX HASH', 'FROM', 'VALUE', 'USD', 'STATUS', 'REASON', 'DATE']);
    const row = firstRow();
    expect(within(row).getByTitle(TX)).toHaveTextContent('0x1f1f1f…1f1f1f');
    expect(within(row).getByTitle(payment.from!)).toBeInTheDocument();
    expect(within(row).getByText('0.012346 ETH')).toBeInTheDocument();
    expect(within(row).getByText('USD $37.04')).toBeInTheDocument();
    expect(within(row).getByText('Unresolved')).toBeInTheDocument();
    expect(within(row).getByText('No open order carries this tag')).toBeInTheDocument();
    expect(within(row).getByText('2026-05-06')).toBeInTheDocument();
  });

  it('assigns a transfer to an order and reports the order status', async () => {
    const { sent } = renderList([payment], {
      'POST /api/admin/payments/pay1/assign': { status: 'COUNTED', orderStatus: 'PAID' },
    });
    await screen.findByRole('table');
    await userEvent.click(within(firstRow()).getByRole('button', { name: 'Assign' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Order ID' }), ORDER_ID);
    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));

    expect(await screen.findByText('Payment assigned. Order status: Paid')).toBeInTheDocument();
    expect(sent('POST /api/admin/payments/pay1/assign')[0]?.body).toEqual({ orderId: ORDER_ID });
    expect(sent('GET /api/admin/payments').length).toBeGreaterThanOrEqual(2);
  });

  it('records a refund with its transaction hash', async () => {
    const { sent } = renderList([payment], {
      'POST /api/admin/payments/pay1/refund': { message: 'Marked as refunded' },
    });
    await screen.findByRole('table');
    await userEvent.click(within(firstRow()).getByRole('button', { name: 'Refund' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Refund tx hash' }), REFUND);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Marked as refunded')).toBeInTheDocument();
    expect(sent('POST /api/admin/payments/pay1/refund')[0]?.body).toEqual({ refundTxHash: REFUND });
  });
});
