import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getAddress } from 'viem';
import { WagmiProvider } from 'wagmi';
import { describe, expect, it, vi } from 'vitest';
import { authorizationMessage, tokenBySymbol, type AssetQuoteJson, type OrderJson, type RelayStatus } from '@shop/core/contract';
import { createWagmiConfig } from '@/lib/wagmi';
import { makeOrder } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderRoutes } from '@/testing/render-app';
import { createFakeEthereum, FAKE_SIGNATURE, rpcError, type FakeEthereumOptions } from '../testing/fake-ethereum';
import { PayPage } from './pay';
import { PurchasedPage } from './purchased';

/**
 * Paying USDC with one signature (EIP-3009, issue 38): the pay page offers it when the
 * order's USDC quote carries `signedTransfer`, signs the authorization in the wallet
 * (no transaction) and posts exactly what was signed; the shop sends it.
 */
const RECEIVING = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DEPOSIT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const USDC = tokenBySymbol('USDC').address;
const RELAY_HASH = `0x${'cd'.repeat(32)}`;
const SIGN = 'Pay with a signature (no ETH needed)';
const TRANSFER = 'Pay 25.00 USD (25.00 USDC)';
const DOMAIN = { name: 'USD Coin', version: '2', chainId: 1, verifyingContract: USDC };
/** When the quotes end: one moment for every read of the order, as the api's quote holds still. */
const EXPIRES_AT = new Date(Date.now() + 15 * 60_000).toISOString();

/** An unpaid $25 order offered in ETH and USDC; USDC by a signature too unless `signable` is false. */
function tokenOrder({ signable = true, ...overrides }: Partial<OrderJson> & { signable?: boolean } = {}): OrderJson {
  const expiresAt = EXPIRES_AT;
  const eth: AssetQuoteJson = {
    asset: 'ETH',
    amount: '8333333333333456',
    decimals: 18,
    tokenAddress: null,
    payTo: RECEIVING,
    depositAddress: DEPOSIT,
    receivingAddress: RECEIVING,
    chainId: 1,
    usdAmount: 25,
    expiresAt,
  };
  const usdc: AssetQuoteJson = { ...eth, asset: 'USDC', amount: '25000000', decimals: 6, tokenAddress: USDC, payTo: DEPOSIT, ...(signable ? { signedTransfer: { domain: DOMAIN } } : {}) };
  return makeOrder({
    status: 'PENDING_PAYMENT',
    isPaid: false,
    paidAt: null,
    expiresAt: null,
    paymentDeadline: new Date(Date.now() + 3_600_000).toISOString(),
    itemsPrice: 25,
    totalPrice: 25,
    paidUsd: 0,
    quote: { ethUsd: '3000.00', amountWei: eth.amount, amountEth: '0.008333', usdAmount: 25, receivingAddress: RECEIVING, chainId: 1, expiresAt, depositAddress: DEPOSIT },
    quotes: [eth, usdc],
    quotesNotOffered: [],
    payments: [],
    authorization: null,
    ...overrides,
  });
}

/** The order's latest signed payment, as the api shows it. */
function authorization(status: RelayStatus) {
  return { _id: 'a1', asset: 'USDC' as const, status, txHash: status === 'RECEIVED' ? null : RELAY_HASH, message: authorizationMessage(status), createdAt: new Date().toISOString() };
}

function paidOrder(): OrderJson {
  return tokenOrder({
    status: 'PAID',
    isPaid: true,
    paidUsd: 25,
    quote: null,
    quotes: undefined,
    quotesNotOffered: undefined,
    authorization: authorization('CONFIRMED'),
    payments: [{ txHash: RELAY_HASH, status: 'COUNTED', confirmations: 1, requiredConfirmations: 1, reason: null, valueWei: null, asset: 'USDC', amount: '25000000', usdValue: 25 }],
  });
}

function renderPay() {
  return renderRoutes(
    [
      { path: '/order/:id', element: (<WagmiProvider config={createWagmiConfig()}><PayPage /></WagmiProvider>) },
      { path: '/order/:id/purchased', element: <PurchasedPage /> },
    ],
    '/order/o1',
  );
}

/** A wallet that holds the USDC and no ETH at all, unless told otherwise. */
function walletWithoutEth(options: FakeEthereumOptions = {}) {
  const wallet = createFakeEthereum({ ethBalance: 0n, tokenBalance: 25_000_000n, ...options });
  vi.stubGlobal('ethereum', wallet.provider);
  return wallet;
}

async function connectAndChooseUsdc(account: string) {
  await userEvent.click(await screen.findByRole('button', { name: 'Connect to MetaMask' }));
  expect(await screen.findByText(`Connected: ${getAddress(account)}`)).toBeInTheDocument();
  const group = screen.getByRole('radiogroup', { name: 'Pay with' });
  await userEvent.click(within(group).getByRole('radio', { name: 'USDC' }));
}

describe('PayPage: paying USDC with a signature', () => {
  it("offers no signature for a USDC quote without signedTransfer (the shop sends none)", async () => {
    const wallet = createFakeEthereum({ ethBalance: 0n, tokenBalance: 25_000_000n });
    vi.stubGlobal('ethereum', wallet.provider);
    mockApi({ 'GET /api/orders/o1': () => tokenOrder({ signable: false }), 'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() } });
    renderPay();
    await connectAndChooseUsdc(wallet.account);
    expect(await screen.findByRole('button', { name: TRANSFER })).toBeEnabled();
    expect(screen.queryByRole('button', { name: SIGN })).not.toBeInTheDocument();
  });

  it("offers 'Pay with a signature (no ETH needed)' for a USDC quote with signedTransfer, after the transfer when the wallet has ETH for gas", async () => {
    const wallet = createFakeEthereum({ ethBalance: 10n ** 18n, tokenBalance: 25_000_000n });
    vi.stubGlobal('ethereum', wallet.provider);
    mockApi({ 'GET /api/orders/o1': () => tokenOrder(), 'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() } });
    renderPay();
    await connectAndChooseUsdc(wallet.account);
    const transfer = await screen.findByRole('button', { name: TRANSFER });
    const sign = await screen.findByRole('button', { name: SIGN });
    // The funds are read (through the wallet) and the transfer stays the first way.
    await waitFor(() => expect(wallet.request.mock.calls.some(([r]) => r.method === 'eth_getBalance')).toBe(true));
    expect(transfer).toBeEnabled();
    expect(sign).toBeEnabled();
    expect(transfer.compareDocumentPosition(sign) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByText(/too little ETH/)).not.toBeInTheDocument();
    // Not for ETH.
    await userEvent.click(within(screen.getByRole('radiogroup', { name: 'Pay with' })).getByRole('radio', { name: 'ETH' }));
    expect(await screen.findByRole('button', { name: 'Pay 25.00 USD (0.008333 ETH)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: SIGN })).not.toBeInTheDocument();
    expect(wallet.signedTypedData).toHaveLength(0);
  });

  it('with USDC and no ETH for gas: signs once, posts exactly the signed message, shows where the payment is, and lands on Success Pay', async () => {
    const wallet = walletWithoutEth();
    let stage: 'unsigned' | 'sent' | 'paid' = 'unsigned';
    const api = mockApi({
      'GET /api/orders/o1': () => (stage === 'paid' ? paidOrder() : stage === 'sent' ? tokenOrder({ authorization: authorization('SENT') }) : tokenOrder()),
      'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() },
      'POST /api/orders/o1/authorization': () => {
        stage = 'sent';
        return reply(202, { _id: 'a1', status: 'RECEIVED', message: authorizationMessage('RECEIVED') });
      },
    });
    const { router } = renderPay();
    await connectAndChooseUsdc(wallet.account);

    // The transfer cannot be sent (no ETH for its gas), and says so; the signature is the way, first.
    const sign = await screen.findByRole('button', { name: SIGN });
    const transfer = screen.getByRole('button', { name: TRANSFER });
    await waitFor(() => expect(transfer).toBeDisabled());
    expect(transfer).toHaveAccessibleDescription(/too little ETH for the network fee of a transfer/);
    expect(sign.compareDocumentPosition(transfer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await userEvent.click(sign);
    expect(await screen.findByText(authorizationMessage('SENT'))).toBeInTheDocument();
    // One signature of the authorization, no transaction.
    expect(wallet.sent).toHaveLength(0);
    expect(wallet.signedTypedData).toHaveLength(1);
    const { typedData, address } = wallet.signedTypedData[0]!;
    expect(address.toLowerCase()).toBe(wallet.account);
    expect(typedData.primaryType).toBe('TransferWithAuthorization');
    // viem hands the wallet its addresses in lower case.
    expect(typedData.domain).toEqual({ ...DOMAIN, verifyingContract: USDC.toLowerCase() });
    const message = typedData.message;
    expect(message).toEqual({
      from: wallet.account.toLowerCase(),
      to: DEPOSIT.toLowerCase(),
      value: '25000000',
      validAfter: '0',
      validBefore: String(Math.floor(Date.parse(EXPIRES_AT) / 1000)),
      nonce: expect.stringMatching(/^0x[0-9a-f]{64}$/) as unknown,
    });
    // The body is what was signed, numbers as decimal strings, and the signature.
    expect(api.sent('POST /api/orders/o1/authorization').map((r) => r.body)).toEqual([{ asset: 'USDC', ...message, signature: FAKE_SIGNATURE }]);
    // While the shop sends it, nothing more to pay from here.
    expect(screen.getByRole('button', { name: SIGN })).toBeDisabled();

    stage = 'paid';
    await waitFor(() => expect(router.location.pathname).toBe('/order/o1/purchased'));
    expect(router.location.search).toBe(`?tx=${RELAY_HASH}`);
    expect(await screen.findByText('Success Pay')).toBeInTheDocument();
  });

  it('takes a fresh nonce for every signature', async () => {
    const wallet = walletWithoutEth();
    mockApi({
      'GET /api/orders/o1': () => tokenOrder(),
      'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() },
      'POST /api/orders/o1/authorization': reply(409, { message: 'This authorization was used or cancelled already: sign again' }),
    });
    renderPay();
    await connectAndChooseUsdc(wallet.account);
    await userEvent.click(await screen.findByRole('button', { name: SIGN }));
    await screen.findByText('This authorization was used or cancelled already: sign again');
    await userEvent.click(screen.getByRole('button', { name: SIGN }));
    await waitFor(() => expect(wallet.signedTypedData).toHaveLength(2));
    const [first, second] = wallet.signedTypedData.map((s) => s.typedData.message.nonce);
    expect(first).not.toBe(second);
  });

  it("shows the server's refusal as it is, and the buyer may sign again", async () => {
    const refusal = '0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1 holds 3.00 USDC, less than the 25.00 USDC it authorizes';
    const wallet = walletWithoutEth();
    const api = mockApi({
      'GET /api/orders/o1': () => tokenOrder(),
      'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() },
      'POST /api/orders/o1/authorization': reply(400, { message: refusal }),
    });
    renderPay();
    await connectAndChooseUsdc(wallet.account);
    await userEvent.click(await screen.findByRole('button', { name: SIGN }));
    const alert = (await screen.findByText(refusal)).closest('[role="alert"]');
    expect(alert).not.toBeNull();
    expect(alert).toHaveTextContent(new RegExp(`^${refusal}$`));
    expect(api.sent('POST /api/orders/o1/authorization')).toHaveLength(1);
    expect(screen.getByRole('button', { name: SIGN })).toBeEnabled();
  });

  it('says plainly when the signature is rejected in the wallet, posts nothing, and signs on the next try', async () => {
    let rejects = 1;
    const wallet = walletWithoutEth({
      signTypedData: () => {
        if (rejects-- > 0) throw rpcError(4001, 'User denied message signature.');
        return FAKE_SIGNATURE;
      },
    });
    const api = mockApi({
      'GET /api/orders/o1': () => tokenOrder(),
      'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() },
      'POST /api/orders/o1/authorization': reply(202, { _id: 'a1', status: 'RECEIVED', message: authorizationMessage('RECEIVED') }),
    });
    renderPay();
    await connectAndChooseUsdc(wallet.account);
    await userEvent.click(await screen.findByRole('button', { name: SIGN }));
    expect(await screen.findByText('You declined the signature in your wallet: nothing was paid. You can sign again.')).toBeInTheDocument();
    expect(api.sent('POST /api/orders/o1/authorization')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: SIGN }));
    await waitFor(() => expect(api.sent('POST /api/orders/o1/authorization')).toHaveLength(1));
    expect(screen.queryByText(/You declined the signature/)).not.toBeInTheDocument();
    expect(wallet.signedTypedData).toHaveLength(2);
  });
});
