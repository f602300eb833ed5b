import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { orderReference, type AdminPaymentJson, type OverpaidOrderJson } from '@shop/core/contract';
import { signIn } from '@/testing/fixtures';
import { mockApi, type MockRequest } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const TX = `0x${'1f'.repeat(32)}`;
const PAYOUT = `0x${'2e'.repeat(32)}`;
const ORDER_ID = '5b0c2f8e-9d0a-4a7e-9f3c-1d2e3f4a5b6c';
const SENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const payment: AdminPaymentJson = {
  _id: 'pay1',
  txHash: TX,
  status: 'UNRESOLVED',
  source: 'INDEXED',
  order: null,
  from: SENDER,
  valueWei: '12345678900000000', asset: 'ETH', amount: '12345678900000000',
  usdValue: 37.04,
  blockNumber: '123',
  reason: 'No open order carries this tag',
  refund: null,
  createdAt: '2026-05-06T10:00:00.000Z',
};

const overpaid: OverpaidOrderJson = {
  _id: ORDER_ID,
  user: { _id: 'u1', name: 'Alice Buyer', email: 'alice@example.com' },
  totalPrice: 21,
  paidUsd: 24,
  overpayment: { usd: 3, creditUsd: 3, wei: '1000000000000000', eth: '0.001000', from: SENDER, refundable: true, parts: [{ txHash: `0x${'ab'.repeat(32)}`, from: SENDER, asset: 'ETH', amount: '1000000000000000', wei: '1000000000000000', eth: '0.001000', usd: 3 }] },
  paidAt: '2026-05-06T11:00:00.000Z',
};

type Lists = { attention?: AdminPaymentJson[]; refunded?: AdminPaymentJson[]; overpaid?: OverpaidOrderJson[] };

function renderList(lists: AdminPaymentJson[] | Lists, extra: Record<string, unknown> = {}) {
  const { attention = [], refunded = [], overpaid: orders = [] } = Array.isArray(lists) ? { attention: lists } : lists;
  signIn({ _id: 'a1', isAdmin: true });
  const api = mockApi({
    'GET /api/admin/payments': ({ path }: MockRequest) => (path.includes('REFUNDED') ? refunded : attention),
    'GET /api/admin/refunds/overpaid': orders,
    'GET /api/admin/deposits/sweeps': [],
    ...extra,
  });
  renderApp('/admin/payments');
  return api;
}

async function rowsOf(table: string) {
  return within(await screen.findByRole('table', { name: table })).getAllByRole('row').slice(1) as HTMLElement[];
}

async function firstRow() {
  return (await rowsOf('Transfers that need attention'))[0]!;
}

describe('PaymentListPage', () => {
  it("asks for unresolved and late transfers and says 'No transfers need attention' when there are none", async () => {
    const { sent } = renderList([]);
    expect(await screen.findByText('No transfers need attention')).toBeInTheDocument();
    const paths = sent('GET /api/admin/payments').map((r) => r.path);
    expect(paths).toContain('/api/admin/payments?status=UNRESOLVED%2CLATE');
    expect(paths).toContain('/api/admin/payments?status=REFUNDED');
    expect(await screen.findByText('No order is overpaid.')).toBeInTheDocument();
    expect(await screen.findByText('No transfers have been refunded.')).toBeInTheDocument();
  });

  it('lists hash, sender, ETH and USD value, status, reason and date', async () => {
    renderList([payment]);
    const table = await screen.findByRole('table', { name: 'Transfers that need attention' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 7)).toEqual(['TX HASH', 'FROM', 'VALUE', 'USD', 'STATUS', 'REASON', 'DATE']);
    const row = await firstRow();
    expect(within(row).getByTitle(TX)).toHaveTextContent('0x1f1f1f…1f1f1f');
    expect(within(row).getByTitle(SENDER)).toBeInTheDocument();
    expect(within(row).getByText('0.012345 ETH')).toBeInTheDocument();
    expect(within(row).getByText('USD $37.04')).toBeInTheDocument();
    expect(within(row).getByText('Unresolved')).toBeInTheDocument();
    expect(within(row).getByText('No open order carries this tag')).toBeInTheDocument();
    expect(within(row).getByText('2026-05-06')).toBeInTheDocument();
  });

  it('lists a token transfer in its asset, and the assign dialog names it so', async () => {
    const usdc: AdminPaymentJson = { ...payment, valueWei: null, asset: 'USDC', amount: '25000000', usdValue: 25 };
    renderList([usdc], { 'GET /api/admin/payments/pay1/orders': [] });
    const row = await firstRow();
    expect(within(row).getByText('25.00 USDC')).toBeInTheDocument();
    expect(within(row).getByText('USD $25.00')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByRole('dialog', { name: 'Assign transfer' })).toHaveTextContent('25.00 USDC (USD $25.00)');
  });

  it('assigns a transfer to an order by its reference and reports the order status', async () => {
    const { sent } = renderList([payment], {
      'GET /api/admin/payments/pay1/orders': [],
      'POST /api/admin/payments/pay1/assign': { status: 'COUNTED', orderStatus: 'PAID' },
    });
    await userEvent.click(within(await firstRow()).getByRole('button', { name: 'Assign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign transfer' });
    expect(dialog).toHaveTextContent('0.012345 ETH (USD $37.04)');
    expect(await within(dialog).findByText(/Nobody reported this transfer for an order/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Order reference or id' }));
    await userEvent.paste(orderReference(ORDER_ID));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));

    expect(await screen.findByText('Payment assigned. The order is paid now.')).toBeInTheDocument();
    expect(sent('POST /api/admin/payments/pay1/assign')[0]?.body).toEqual({ orderId: orderReference(ORDER_ID) });
    expect(sent('GET /api/admin/payments').length).toBeGreaterThanOrEqual(3);
    expect(screen.queryByRole('dialog', { name: 'Assign transfer' })).not.toBeInTheDocument();
  });

  it("offers the buyer's open orders the server finds, and assigns to the one picked", async () => {
    const offered = {
      _id: ORDER_ID,
      reference: orderReference(ORDER_ID),
      status: 'EXPIRED',
      createdAt: '2026-05-05T09:00:00.000Z',
      paymentDeadline: '2026-05-05T09:30:00.000Z',
      totalPrice: 25,
      dueUsd: 25,
      reported: false,
      buyer: { _id: 'u1', name: 'Alice Buyer', email: 'alice@example.com' },
    };
    const { sent } = renderList([payment], {
      'GET /api/admin/payments/pay1/orders': ({ path }: MockRequest) => (path.includes('q=') ? [offered] : []),
      'POST /api/admin/payments/pay1/assign': { status: 'COUNTED', orderStatus: 'PAID' },
    });
    await userEvent.click(within(await firstRow()).getByRole('button', { name: 'Assign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign transfer' });
    await userEvent.click(within(dialog).getByRole('searchbox', { name: "Buyer's e-mail or name" }));
    await userEvent.paste('alice@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Find' }));
    const [item] = within(await within(dialog).findByRole('list', { name: 'Open orders' })).getAllByRole('listitem');
    expect(item).toHaveTextContent(`${orderReference(ORDER_ID)}Expired`);
    expect(item).toHaveTextContent('Alice Buyer · alice@example.com');
    expect(item).toHaveTextContent('USD $25.00 due of USD $25.00 · placed 2026-05-05');
    expect(sent('GET /api/admin/payments/pay1/orders').map((r) => r.path)).toContain('/api/admin/payments/pay1/orders?q=alice%40example.com');
    await userEvent.click(within(item!).getByRole('button', { name: `Assign to ${orderReference(ORDER_ID)}` }));
    expect(await screen.findByText('Payment assigned. The order is paid now.')).toBeInTheDocument();
    expect(sent('POST /api/admin/payments/pay1/assign')[0]?.body).toEqual({ orderId: ORDER_ID });
  });

  it('requests a refund to the sender when the wallet is left empty', async () => {
    const { sent } = renderList([payment], {
      'POST /api/admin/payments/pay1/refund': { message: 'Refund requested.', refundId: 'r1' },
    });
    await userEvent.click(within(await firstRow()).getByRole('button', { name: 'Refund' }));
    const wallet = screen.getByRole('textbox', { name: 'Refund wallet' });
    expect(wallet).toHaveAttribute('placeholder', SENDER);
    expect(wallet).not.toBeRequired();
    await userEvent.click(screen.getByRole('button', { name: 'Request refund' }));

    expect(await screen.findByText('Refund requested. Pay it out from the Cashouts page.')).toBeInTheDocument();
    expect(sent('POST /api/admin/payments/pay1/refund')[0]?.body).toEqual({});
  });

  it('requests a refund to another wallet; an inflow (no sender) can only be refunded, to a wallet it must name', async () => {
    const inflow: AdminPaymentJson = { ...payment, _id: 'pay2', source: 'INFLOW', from: null, txHash: `0x${'3d'.repeat(32)}` };
    const { sent } = renderList([inflow], {
      'POST /api/admin/payments/pay2/refund': { message: 'Refund requested.', refundId: 'r2' },
    });
    const row = await firstRow();
    expect(within(row).queryByRole('button', { name: 'Assign' })).not.toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Refund' }));
    const wallet = screen.getByRole('textbox', { name: 'Refund wallet' });
    expect(wallet).toBeRequired();
    await userEvent.click(screen.getByRole('button', { name: 'Request refund' }));
    expect(sent('POST /api/admin/payments/pay2/refund')).toHaveLength(0);

    await userEvent.type(wallet, OTHER_WALLET);
    // Why, for a second admin if the refund waits for one (the server decides).
    await userEvent.type(screen.getByRole('textbox', { name: 'Reason for a second admin' }), ' Buyer asked by phone ');
    await userEvent.click(screen.getByRole('button', { name: 'Request refund' }));
    expect(await screen.findAllByText('Refund requested. Pay it out from the Cashouts page.')).not.toHaveLength(0);
    expect(sent('POST /api/admin/payments/pay2/refund')[0]?.body).toEqual({ wallet: OTHER_WALLET, approvalReason: 'Buyer asked by phone' });
  });

  it("shows each refunded transfer's refund: requested to a wallet, then paid in a transaction", async () => {
    renderList({
      refunded: [
        { ...payment, _id: 'pay3', status: 'REFUNDED', refund: { _id: 'r3', status: 'REQUESTED', wallet: SENDER, payoutTxHash: null } },
        { ...payment, _id: 'pay4', status: 'REFUNDED', refund: { _id: 'r4', status: 'PAID', wallet: SENDER, payoutTxHash: PAYOUT } },
      ],
    });
    const [requested, paid] = await rowsOf('Refunded transfers');
    expect(within(requested!).getByText(/Refund requested to/)).toHaveTextContent('Refund requested to 0x709979…dc79C8');
    expect(within(paid!).getByText(/Refunded in/)).toHaveTextContent('Refunded in 0x2e2e2e…2e2e2e');
    expect(within(paid!).getByTitle(PAYOUT)).toBeInTheDocument();
  });

  it('lists overpaid orders and requests a refund of the overpayment, to the sender or another wallet', async () => {
    const { sent } = renderList(
      { overpaid: [overpaid] },
      { 'POST /api/admin/refunds': { _id: 'r5' } },
    );
    const section = await screen.findByRole('region', { name: 'Overpaid orders' });
    const [row] = await rowsOf('Overpaid orders');
    expect(within(section).getAllByRole('columnheader').map((h) => h.textContent).slice(0, 6)).toEqual([
      'ORDER',
      'BUYER',
      'TOTAL',
      'PAID',
      'OVERPAYMENT',
      'FROM',
    ]);
    expect(within(row!).getByRole('link', { name: orderReference(ORDER_ID) })).toHaveAttribute('href', `/admin/order/${ORDER_ID}`);
    expect(within(row!).getByText('Alice Buyer')).toBeInTheDocument();
    expect(within(row!).getByText('USD $21.00')).toBeInTheDocument();
    expect(within(row!).getByText('USD $24.00')).toBeInTheDocument();
    expect(within(row!).getByText('USD $3.00')).toBeInTheDocument();
    expect(within(row!).getByText('0.001000 ETH')).toBeInTheDocument();
    expect(within(row!).getByTitle(SENDER)).toBeInTheDocument();

    await userEvent.click(within(row!).getByRole('button', { name: 'Refund overpayment' }));
    await userEvent.click(within(row!).getByRole('button', { name: 'Request refund' }));
    expect(await screen.findAllByText('Refund requested. Pay it out from the Cashouts page.')).not.toHaveLength(0);
    expect(sent('POST /api/admin/refunds')[0]?.body).toEqual({ orderId: ORDER_ID });

    await userEvent.click(within(row!).getByRole('button', { name: 'Refund overpayment' }));
    await userEvent.type(within(row!).getByRole('textbox', { name: 'Refund wallet' }), OTHER_WALLET);
    await userEvent.type(within(row!).getByRole('textbox', { name: 'Reason for a second admin' }), 'Paid twice');
    await userEvent.click(within(row!).getByRole('button', { name: 'Request refund' }));
    await screen.findByRole('button', { name: 'Refund overpayment' });
    expect(sent('POST /api/admin/refunds')[1]?.body).toEqual({ orderId: ORDER_ID, wallet: OTHER_WALLET, approvalReason: 'Paid twice' });
  });
});
