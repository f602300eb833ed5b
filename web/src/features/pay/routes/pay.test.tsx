import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getAddress } from 'viem';
import { WagmiProvider } from 'wagmi';
import { describe, expect, it, vi } from 'vitest';
import { refundWalletMessage, tokenBySymbol, type AssetQuoteJson, type OrderJson, type RefundJson } from '@shop/core/contract';
import { ETH_PRICE_REFRESH_MS } from '@/api/get-eth-price';
import { createWagmiConfig } from '@/lib/wagmi';
import { addToCart, getCart } from '@/stores/cart-store';
import { makeOrder, makeProduct, makeRefund, signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp, renderRoutes } from '@/testing/render-app';
import { createFakeEthereum, FAKE_SIGNATURE, rpcError } from '../testing/fake-ethereum';
import { PayPage } from './pay';
import { PurchasedPage } from './purchased';

const RECEIVING = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const HASH = `0x${'ab'.repeat(32)}`;
const NEW_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

function unpaidOrder(overrides: Partial<OrderJson> = {}): OrderJson {
  return makeOrder({
    status: 'PENDING_PAYMENT',
    isPaid: false,
    paidAt: null,
    expiresAt: null,
    paymentDeadline: new Date(Date.now() + 3_600_000).toISOString(),
    itemsPrice: 21,
    totalPrice: 21,
    paidUsd: 0,
    orderedItems: [{ name: 'Gold Package', image: '/images/gold.svg', price: 10.5, qty: 2, product: 'p1' }],
    quote: {
      ethUsd: '3000.00',
      amountWei: '7000000000000123',
      amountEth: '0.007000',
      usdAmount: 21,
      receivingAddress: RECEIVING,
      chainId: 1,
      expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
    },
    payments: [],
    ...overrides,
  });
}

/** A paid order with these refunds. */
function orderWithRefunds(refunds: RefundJson[]): OrderJson {
  return makeOrder({ _id: 'o1', quote: null, payments: [], refunds });
}

function mockShop(order: () => OrderJson = () => unpaidOrder(), ethPrice: unknown = { price: '3000.00', updatedAt: new Date().toISOString() }) {
  return mockApi({
    'GET /api/orders/o1': order,
    'GET /api/crypto/eth-price': ethPrice,
    'PUT /api/orders/o1/purchased': reply(202, { status: 'PENDING_PAYMENT' }),
  });
}

/** The pay page with a wagmi config of its own, so no wallet state leaks between tests. */
function renderPay() {
  return renderRoutes(
    [
      {
        path: '/order/:id',
        element: (
          <WagmiProvider config={createWagmiConfig()}>
            <PayPage />
          </WagmiProvider>
        ),
      },
      { path: '/order/:id/purchased', element: <PurchasedPage /> },
    ],
    '/order/o1',
  );
}

async function connectWallet(address: string) {
  await userEvent.click(await screen.findByRole('button', { name: 'Connect to MetaMask' }));
  expect(await screen.findByText(`Connected: ${getAddress(address)}`)).toBeInTheDocument();
}

describe('PayPage', () => {
  it("is the lazy /order/:id route: title 'Pay', the order, nothing red until the buyer acts, then 'Please,Install MetaMask!' once", async () => {
    signIn();
    mockShop();
    renderApp('/order/o1');
    // The route loads the wallet code on demand; the first import is slow in jsdom.
    expect(await screen.findByRole('heading', { name: 'Pay', level: 1 })).toBeInTheDocument();
    const connectButton = await screen.findByRole('button', { name: 'Connect to MetaMask' });
    expect(screen.queryByText('Please,Install MetaMask!')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(connectButton);
    expect(await screen.findAllByText('Please,Install MetaMask!')).toHaveLength(1);
    // One message: no toast on top of the alert.
    expect(document.querySelector('[data-sonner-toast]')).toBeNull();
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(within(summary).getByText('2 x $10.50 = $21.00')).toBeInTheDocument();
    expect(within(summary).getByText('Awaiting payment')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect to MetaMask' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open MetaMask' })).not.toBeInTheDocument();
  });

  it("offers 'Use dev wallet (anvil)' on a development chain only, and says a test network's payment request is for it", async () => {
    const network = { chainId: 1, name: 'Local development chain', testNetwork: true, developmentChain: true, explorerUrl: null };
    for (const developmentChain of [false, true]) {
      const config = { network: { ...network, developmentChain, name: developmentChain ? 'Local development chain' : 'Sepolia staging' } };
      const { sent } = mockApi({ 'GET /api/orders/o1': unpaidOrder(), 'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() }, 'GET /api/config': config });
      const { unmount } = renderPay();
      await screen.findByRole('button', { name: 'Connect to MetaMask' });
      await waitFor(() => expect(sent('GET /api/config').length).toBeGreaterThan(0));
      await screen.findByText(`A test network (${config.network.name}, chain id 1): send from a wallet on this network only, never real ETH.`);
      if (developmentChain) expect(await screen.findByRole('button', { name: 'Use dev wallet (anvil)' })).toBeInTheDocument();
      else expect(screen.queryByRole('button', { name: 'Use dev wallet (anvil)' })).not.toBeInTheDocument();
      unmount();
    }
  });

  it("claiming a transfer without a wallet says 'Please,Install MetaMask!' once, in the claim box that asked", async () => {
    mockShop();
    renderPay();
    await userEvent.click(await screen.findByText('Sent an amount that was rounded? Claim your transfer'));
    const form = screen.getByRole('form', { name: 'Claim a transfer' });
    await userEvent.type(within(form).getByLabelText('Transaction hash'), `0x${'ab'.repeat(32)}`);
    await userEvent.click(within(form).getByRole('button', { name: 'Sign and claim' }));
    expect(await within(form).findByText('Please,Install MetaMask!')).toBeInTheDocument();
    expect(screen.getAllByText('Please,Install MetaMask!')).toHaveLength(1);
  });

  it('a failed refresh of the order shows the error above it and keeps the order and the payment panel', async () => {
    let reads = 0;
    mockShop(() => (reads++ === 0 ? unpaidOrder() : (reply(404, { message: 'Order not found' }) as unknown as OrderJson)));
    renderPay();
    expect(await screen.findByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' })).toBeInTheDocument();
    // The page follows the order every 1.5 s; the next read fails.
    expect(await screen.findByText('Error: Order not found', {})).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Order summary' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Payment' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' })).toBeInTheDocument();
  });

  it('without a browser wallet on a desktop, offers the phone first: a QR code and link of the exact EIP-681 payment request', async () => {
    mockShop();
    renderPay();
    const phone = await screen.findByRole('region', { name: 'Pay from a phone wallet' });
    expect(within(phone).getByRole('heading', { name: 'No browser wallet here: pay from your phone' })).toBeInTheDocument();
    expect(await within(phone).findByRole('img', { name: 'QR code of the payment request' })).toBeInTheDocument();
    expect(within(phone).getByRole('link', { name: 'Open the payment request in a wallet app' })).toHaveAttribute(
      'href',
      `ethereum:${RECEIVING}@1?value=7000000000000123`,
    );
    expect(within(phone).getByText('0.007000000000000123 ETH')).toBeInTheDocument();
    // The phone section comes before the MetaMask button; nothing red shows before the buyer acts.
    const connect = screen.getByRole('button', { name: 'Connect to MetaMask' });
    expect(phone.compareDocumentPosition(connect) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByText('Please,Install MetaMask!')).not.toBeInTheDocument();
  });

  it("offers 'Open MetaMask' with the wallet's deep link to this page on android", async () => {
    vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(ANDROID_UA);
    mockShop();
    renderPay();
    const link = await screen.findByRole('link', { name: 'Open MetaMask' });
    expect(link).toHaveAttribute('href', `https://metamask.app.link/dapp/${window.location.host}/order/o1`);
    // The phone is not offered a code to scan with itself: the request opens in a wallet app.
    const phone = await screen.findByRole('region', { name: 'Pay from a phone wallet' });
    // The panel without a code (its code would come a moment after the panel, so its heading tells).
    expect(within(phone).getByRole('heading', { name: 'Or pay from another wallet app' })).toBeInTheDocument();
    expect(within(phone).queryByRole('img', { name: 'QR code of the payment request' })).not.toBeInTheDocument();
    expect(within(phone).getByRole('link', { name: 'Open the payment request in a wallet app' })).toHaveAttribute('href', `ethereum:${RECEIVING}@1?value=7000000000000123`);
    expect(link.compareDocumentPosition(phone) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("labels the button 'Pay {total} USD ({eth} ETH)' from the order and its quote, with the live price", async () => {
    mockShop();
    renderPay();
    expect(await screen.findByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' })).toBeEnabled();
    expect(await screen.findByText('1 ETH = USD $3000.00')).toBeInTheDocument();
    expect(screen.getByText(/^1[45]:\d\d left$/)).toBeInTheDocument();
  });

  it('follows the live price while the page is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let price = '3000.00';
    mockShop(undefined, () => ({ price, updatedAt: new Date().toISOString() }));
    renderPay();
    expect(await screen.findByText('1 ETH = USD $3000.00')).toBeInTheDocument();
    price = '3150.25';
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ETH_PRICE_REFRESH_MS);
    });
    expect(await screen.findByText('1 ETH = USD $3150.25')).toBeInTheDocument();
  });

  it('pays only the shortfall of an underpaid order and says what is still due', async () => {
    const base = unpaidOrder();
    mockShop(() => ({
      ...base,
      status: 'UNDERPAID',
      paidUsd: 10,
      quote: { ...base.quote!, usdAmount: 11, amountWei: '3666666666666790', amountEth: '0.003667' },
      payments: [
        { txHash: `0x${'12'.repeat(32)}`, status: 'COUNTED', confirmations: 12, requiredConfirmations: 12, reason: null, valueWei: '3333333333333457', asset: 'ETH', amount: '3333333333333457', usdValue: 10, },
      ],
    }));
    renderPay();
    expect(await screen.findByRole('button', { name: 'Pay 11.00 USD (0.003667 ETH)' })).toBeInTheDocument();
    expect(screen.getByText('Underpaid: $11.00 still due')).toBeInTheDocument();
    expect(screen.getByText('Confirmed: $10.00 counted')).toBeInTheDocument();
  });

  describe('paying from an exchange', () => {
    const DEPOSIT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';

    it('offers no exchange route when the quote has no deposit address', async () => {
      mockShop();
      renderPay();
      expect(await screen.findByRole('region', { name: 'Pay from a phone wallet' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Paying from an exchange?' })).not.toBeInTheDocument();
    });

    it("offers the order's deposit address after the wallet routes, which stay as they are", async () => {
      const base = unpaidOrder();
      mockShop(() => ({ ...base, quote: { ...base.quote!, depositAddress: DEPOSIT } }));
      renderPay();
      const exchange = await screen.findByRole('region', { name: 'Pay from an exchange' });
      const phone = screen.getByRole('region', { name: 'Pay from a phone wallet' });
      expect(phone.compareDocumentPosition(exchange) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(within(phone).getByRole('link', { name: 'Open the payment request in a wallet app' })).toHaveAttribute(
        'href',
        `ethereum:${RECEIVING}@1?value=7000000000000123`,
      );
      expect(screen.getByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' })).toBeInTheDocument();

      await userEvent.click(within(exchange).getByRole('button', { name: 'Paying from an exchange?' }));
      expect(within(exchange).getByText('Paying from an exchange? Send at least 0.007000 ETH to this address')).toBeInTheDocument();
      expect(within(exchange).getByText(DEPOSIT)).toBeInTheDocument();
      expect(await within(exchange).findByRole('img', { name: 'QR code of the deposit address' })).toBeInTheDocument();
    });

    it("shows one QR code while the exchange panel is open: the deposit address's, checksummed, on a desktop and on a phone", async () => {
      const base = unpaidOrder();
      // The api gives the address as it is stored, in lower case.
      mockShop(() => ({ ...base, quote: { ...base.quote!, depositAddress: DEPOSIT.toLowerCase() } }));
      const { unmount } = renderPay();
      await userEvent.click(await screen.findByRole('button', { name: 'Paying from an exchange?' }));
      const exchange = screen.getByRole('region', { name: 'Pay from an exchange' });
      expect(within(exchange).getByText(DEPOSIT)).toBeInTheDocument();
      expect(screen.getAllByRole('img', { name: /^QR code/ }).map((qr) => qr.getAttribute('aria-label'))).toEqual(['QR code of the deposit address']);
      // Closed again, the phone wallet's code is back.
      await userEvent.click(within(exchange).getByRole('button', { name: 'Paying from an exchange?' }));
      expect(await screen.findByRole('img', { name: 'QR code of the payment request' })).toBeInTheDocument();
      unmount();

      vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(ANDROID_UA);
      renderPay();
      await userEvent.click(await screen.findByRole('button', { name: 'Paying from an exchange?' }));
      const onPhone = screen.getByRole('region', { name: 'Pay from an exchange' });
      expect(within(onPhone).getByText(DEPOSIT)).toBeInTheDocument();
      expect(screen.getAllByRole('img', { name: /^QR code/ }).map((qr) => qr.getAttribute('aria-label'))).toEqual(['QR code of the deposit address']);
    });

    it("asks an underpaid order for what is still due, to the same address", async () => {
      const base = unpaidOrder();
      mockShop(() => ({
        ...base,
        status: 'UNDERPAID',
        paidUsd: 10,
        quote: { ...base.quote!, usdAmount: 11, amountWei: '3666666666666790', amountEth: '0.003667', depositAddress: DEPOSIT },
      }));
      renderPay();
      await userEvent.click(await screen.findByRole('button', { name: 'Paying from an exchange?' }));
      const exchange = screen.getByRole('region', { name: 'Pay from an exchange' });
      expect(within(exchange).getByText('Paying from an exchange? Send at least 0.003667 ETH to this address')).toBeInTheDocument();
      expect(within(exchange).getByText(DEPOSIT)).toBeInTheDocument();
      expect(screen.getByText('Underpaid: $11.00 still due')).toBeInTheDocument();
    });
  });

  describe("'Pay with' a token", () => {
    const DEPOSIT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
    const USDC = tokenBySymbol('USDC').address;
    const USDT_OFF_PEG = 'USDT is off its peg (1 USDT = USD $0.97): not offered now';

    /** An order of $25 offered in ETH and USDC; USDT accepted but off its peg. */
    function tokenOrder(overrides: Partial<OrderJson> = {}): OrderJson {
      const base = unpaidOrder({ itemsPrice: 25, totalPrice: 25 });
      const quote = { ...base.quote!, usdAmount: 25, amountWei: '8333333333333456', amountEth: '0.008333', depositAddress: DEPOSIT };
      const eth: AssetQuoteJson = {
        asset: 'ETH',
        amount: quote.amountWei,
        decimals: 18,
        tokenAddress: null,
        payTo: RECEIVING,
        depositAddress: DEPOSIT,
        receivingAddress: RECEIVING,
        chainId: 1,
        usdAmount: 25,
        expiresAt: quote.expiresAt,
      };
      const usdc: AssetQuoteJson = { ...eth, asset: 'USDC', amount: '25000000', decimals: 6, tokenAddress: USDC, payTo: DEPOSIT };
      return { ...base, quote, quotes: [eth, usdc], quotesNotOffered: [{ asset: 'USDT', reason: USDT_OFF_PEG }], ...overrides };
    }

    async function chooseUsdc() {
      const group = await screen.findByRole('radiogroup', { name: 'Pay with' });
      await userEvent.click(within(group).getByRole('radio', { name: 'USDC' }));
      expect(within(group).getByRole('radio', { name: 'USDC' })).toBeChecked();
    }

    it("asks 'Pay with' as a radio group, ETH chosen first; an asset not offered is disabled with its reason", async () => {
      mockShop(() => tokenOrder());
      renderPay();
      const group = await screen.findByRole('radiogroup', { name: 'Pay with' });
      expect(within(group).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['ETH', 'USDC', 'USDT']);
      expect(within(group).getByRole('radio', { name: 'ETH' })).toBeChecked();
      expect(within(group).getByRole('radio', { name: 'USDC' })).toBeEnabled();
      const usdt = within(group).getByRole('radio', { name: 'USDT' });
      expect(usdt).toBeDisabled();
      expect(usdt).toHaveAccessibleDescription(USDT_OFF_PEG);
      expect(within(group).getByText(USDT_OFF_PEG)).toBeInTheDocument();
      // ETH reads as it always has.
      expect(screen.getByRole('button', { name: 'Pay 25.00 USD (0.008333 ETH)' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Open the payment request in a wallet app' })).toHaveAttribute('href', `ethereum:${RECEIVING}@1?value=8333333333333456`);
    });

    it('shows no choice when the order has no per-asset quotes: the ETH quote as before', async () => {
      mockShop();
      renderPay();
      expect(await screen.findByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' })).toBeInTheDocument();
      expect(screen.queryByRole('radiogroup', { name: 'Pay with' })).not.toBeInTheDocument();
    });

    it("shows the chosen token's amount, its address and its EIP-681 transfer request", async () => {
      mockShop(() => tokenOrder());
      renderPay();
      await chooseUsdc();
      const details = screen.getByText('Send to').closest('dl')!;
      expect(within(details).getByText('25.00 USDC')).toBeInTheDocument();
      expect(within(details).getByText(DEPOSIT)).toBeInTheDocument();
      expect(within(details).getByText(/^1[45]:\d\d left$/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Pay 25.00 USD (25.00 USDC)' })).toBeInTheDocument();
      // A claim is for ETH that lost its tag: a token paid to the order's own address needs none.
      expect(screen.queryByText('Sent an amount that was rounded? Claim your transfer')).toBeNull();
      const phone = screen.getByRole('region', { name: 'Pay from a phone wallet' });
      expect(within(phone).getByRole('link', { name: 'Open the payment request in a wallet app' })).toHaveAttribute(
        'href',
        `ethereum:${USDC}@1/transfer?address=${DEPOSIT}&uint256=25000000`,
      );
      expect(await within(phone).findByRole('img', { name: 'QR code of the payment request' })).toBeInTheDocument();
      expect(within(phone).queryByText(/exactly/)).not.toBeInTheDocument();
    });

    it("asks 'Paying from an exchange?' for the chosen token's amount, to the deposit address", async () => {
      mockShop(() => tokenOrder());
      renderPay();
      await chooseUsdc();
      const exchange = screen.getByRole('region', { name: 'Pay from an exchange' });
      await userEvent.click(within(exchange).getByRole('button', { name: 'Paying from an exchange?' }));
      expect(within(exchange).getByText('Paying from an exchange? Send at least 25.00 USDC to this address')).toBeInTheDocument();
      expect(within(exchange).getByText(DEPOSIT)).toBeInTheDocument();
      expect(within(exchange).getByText(/Ethereum network only: send USDC on Ethereum mainnet/)).toBeInTheDocument();
    });

    it("choosing USDC sends the token's transfer(deposit address, amount) to its contract, reports the hash and lands on 'Success Pay'", async () => {
      const wallet = createFakeEthereum();
      vi.stubGlobal('ethereum', wallet.provider);
      let reported = false;
      const api = mockApi({
        'GET /api/orders/o1': () =>
          reported
            ? tokenOrder({ status: 'PAID', isPaid: true, paidUsd: 25, quote: null, quotes: undefined, quotesNotOffered: undefined, payments: [
                { txHash: HASH, status: 'COUNTED', confirmations: 12, requiredConfirmations: 12, reason: null, valueWei: null, asset: 'USDC', amount: '25000000', usdValue: 25 },
              ] })
            : tokenOrder(),
        'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() },
        'PUT /api/orders/o1/purchased': () => {
          reported = true;
          return reply(202, { status: 'VERIFYING' });
        },
      });
      const { router } = renderPay();
      await connectWallet(wallet.account);
      await chooseUsdc();
      await userEvent.click(screen.getByRole('button', { name: 'Pay 25.00 USD (25.00 USDC)' }));

      await waitFor(() => expect(router.location.pathname).toBe('/order/o1/purchased'));
      expect(router.location.search).toBe(`?tx=${HASH}`);
      expect(await screen.findByText('Success Pay')).toBeInTheDocument();
      expect(wallet.sent).toHaveLength(1);
      expect(wallet.sent[0]!.to!.toLowerCase()).toBe(USDC.toLowerCase());
      expect(BigInt(wallet.sent[0]!.value ?? '0x0')).toBe(0n);
      expect(wallet.tokenTransfers).toEqual([{ token: wallet.sent[0]!.to, to: DEPOSIT, amount: 25_000_000n }]);
      expect(api.sent('PUT /api/orders/o1/purchased').map((r) => r.body)).toEqual([{ txHash: HASH, asset: 'USDC' }]);
    });

    it('goes back to ETH when the chosen token is no longer offered, says why, and stays there', async () => {
      const offPeg = 'USDC is off its peg (1 USDC = USD $0.96): not offered now';
      let usdcOffered = true;
      mockShop(() => {
        const order = tokenOrder();
        return usdcOffered ? order : { ...order, quotes: order.quotes!.slice(0, 1), quotesNotOffered: [...order.quotesNotOffered!, { asset: 'USDC', reason: offPeg }] };
      });
      renderPay();
      await chooseUsdc();
      expect(screen.getByRole('button', { name: 'Pay 25.00 USD (25.00 USDC)' })).toBeInTheDocument();
      usdcOffered = false;
      // The page follows the order: the next read no longer offers USDC.
      const group = screen.getByRole('radiogroup', { name: 'Pay with' });
      await waitFor(() => expect(within(group).getByRole('radio', { name: 'USDC' })).toBeDisabled());
      expect(within(group).getByRole('radio', { name: 'USDC' })).toHaveAccessibleDescription(offPeg);
      expect(within(group).getByRole('radio', { name: 'ETH' })).toBeChecked();
      expect(screen.getByRole('button', { name: 'Pay 25.00 USD (0.008333 ETH)' })).toBeInTheDocument();
      // Offered again, it is there to choose; the page does not switch back by itself.
      usdcOffered = true;
      await waitFor(() => expect(within(group).getByRole('radio', { name: 'USDC' })).toBeEnabled());
      expect(within(group).getByRole('radio', { name: 'ETH' })).toBeChecked();
    });

    it('lists each payment with its asset and amount, on the way and on the receipt', async () => {
      const usdcPayment = { txHash: HASH, confirmations: 3, requiredConfirmations: 12, reason: null, valueWei: null, asset: 'USDC' as const, amount: '25000000', usdValue: 25 };
      mockShop(() => tokenOrder({ status: 'VERIFYING', payments: [{ ...usdcPayment, status: 'PENDING' }] }));
      const { unmount } = renderPay();
      const progress = await screen.findByRole('list', { name: 'Payments' });
      expect(within(progress).getByText('25.00 USDC')).toBeInTheDocument();
      unmount();

      mockShop(() => makeOrder({ _id: 'o1', totalPrice: 25, paidUsd: 25, quote: null, payments: [{ ...usdcPayment, status: 'COUNTED', confirmations: 12 }] }));
      renderPay();
      const receipt = await screen.findByRole('region', { name: 'Receipt' });
      expect(within(receipt).getAllByText('25.00 USDC').length).toBeGreaterThan(0);
      expect(within(receipt).getByText('25.00 USDC · $25.00 USD')).toBeInTheDocument();
    });
  });

  it("shows 'Provider error.' when the ETH price request fails on the network, else the error text", async () => {
    mockShop(undefined, () => {
      throw new TypeError('Failed to fetch');
    });
    renderPay();
    expect(await screen.findByText('Provider error.')).toBeInTheDocument();
    expect(screen.getByText('Provider error.').closest('[role="alert"]')).not.toBeNull();
  });

  it("shows the server's text when the price feed answers with an error", async () => {
    mockShop(undefined, reply(503, { message: 'ETH price is unavailable' }));
    renderPay();
    expect(await screen.findByText('ETH price is unavailable')).toBeInTheDocument();
  });

  it("asks to connect first: 'Please,connect MetaMask.'", async () => {
    mockShop();
    renderPay();
    await userEvent.click(await screen.findByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' }));
    expect((await screen.findAllByText('Please,connect MetaMask.')).length).toBeGreaterThan(0);
  });

  it("connects MetaMask, sends exactly amountWei, reports the hash and goes to the success page once paid", async () => {
    const wallet = createFakeEthereum();
    vi.stubGlobal('ethereum', wallet.provider);
    addToCart({ ...makeProduct({ _id: 'p1', price: 10.5 }), qty: 2 });
    let reported = false;
    const api = mockApi({
      'GET /api/orders/o1': () =>
        reported
          ? unpaidOrder({ status: 'PAID', isPaid: true, paidUsd: 21, quote: null, payments: [
              { txHash: HASH, status: 'COUNTED', confirmations: 12, requiredConfirmations: 12, reason: null, valueWei: '7000000000000123', asset: 'ETH', amount: '7000000000000123', usdValue: 21 },
            ] })
          : unpaidOrder(),
      'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() },
      'PUT /api/orders/o1/purchased': () => {
        reported = true;
        return reply(202, { status: 'VERIFYING' });
      },
    });
    const { router } = renderPay();

    await connectWallet(wallet.account);
    expect(await screen.findByText('MetaMask Successfully Connected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' }));

    await waitFor(() => expect(router.location.pathname).toBe('/order/o1/purchased'));
    expect(router.location.search).toBe(`?tx=${HASH}`);
    expect(await screen.findByText('Success Pay')).toBeInTheDocument();
    expect(wallet.sent).toHaveLength(1);
    expect(BigInt(wallet.sent[0]!.value!)).toBe(7000000000000123n);
    expect(wallet.sent[0]!.to!.toLowerCase()).toBe(RECEIVING.toLowerCase());
    expect(api.sent('PUT /api/orders/o1/purchased')[0]?.body).toEqual({ txHash: HASH });
    expect(getCart().cartItems).toEqual([]);
  });

  it("shows each payment's confirmations while the worker verifies it", async () => {
    mockShop(() =>
      unpaidOrder({
        status: 'VERIFYING',
        payments: [
          { txHash: HASH, status: 'PENDING', confirmations: 3, requiredConfirmations: 12, reason: null, valueWei: null, asset: 'ETH', amount: null, usdValue: null },
          { txHash: `0x${'cd'.repeat(32)}`, status: 'REJECTED', confirmations: 0, requiredConfirmations: 12, reason: 'The transaction failed on chain', valueWei: null, asset: 'ETH', amount: null, usdValue: null },
        ],
      }),
    );
    renderPay();
    expect(await screen.findByText('Waiting for confirmations 3/12')).toBeInTheDocument();
    expect(screen.getByText('Rejected: The transaction failed on chain')).toBeInTheDocument();
  });

  it("says 'Payment Error: {message}' when the wallet rejects the transaction", async () => {
    const wallet = createFakeEthereum({
      sendTransaction: () => {
        throw rpcError(4001, 'User denied transaction signature.');
      },
    });
    vi.stubGlobal('ethereum', wallet.provider);
    const api = mockShop();
    renderPay();
    await connectWallet(wallet.account);
    await userEvent.click(screen.getByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' }));
    expect((await screen.findAllByText('Payment Error: User rejected the request.')).length).toBeGreaterThan(0);
    expect(api.sent('PUT /api/orders/o1/purchased')).toHaveLength(0);
  });

  it("pays on the quote's own chain, never on a default: a Sepolia quote is not paid from a wallet on mainnet", async () => {
    const wallet = createFakeEthereum();
    vi.stubGlobal('ethereum', wallet.provider);
    const base = unpaidOrder();
    // The shop's config (its chain) has not answered: only the quote says where to pay.
    const api = mockShop(() => ({ ...base, quote: { ...base.quote!, chainId: 11155111 } }));
    renderPay();
    await connectWallet(wallet.account);
    await userEvent.click(screen.getByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' }));
    expect((await screen.findAllByText('Please,switch Ethereum Mainnet Network.')).length).toBeGreaterThan(0);
    expect(wallet.sent).toHaveLength(0);
    expect(api.sent('PUT /api/orders/o1/purchased')).toHaveLength(0);
  });

  it("says 'Please,switch Ethereum Mainnet Network.' on another chain and switches on request", async () => {
    const wallet = createFakeEthereum({ chainId: '0xaa36a7' });
    vi.stubGlobal('ethereum', wallet.provider);
    mockShop();
    renderPay();
    await connectWallet(wallet.account);
    expect(await screen.findByText('Please,switch Ethereum Mainnet Network.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Ethereum Mainnet' }));
    await waitFor(() => expect(screen.queryByText('Please,switch Ethereum Mainnet Network.')).not.toBeInTheDocument());
    expect(wallet.request).toHaveBeenCalledWith(expect.objectContaining({ method: 'wallet_switchEthereumChain' }));
  });

  it("says 'Connection Error: {message}' when the wallet refuses to connect", async () => {
    const wallet = createFakeEthereum();
    wallet.request.mockImplementation(async ({ method }) => {
      if (method === 'wallet_requestPermissions' || method === 'eth_requestAccounts') {
        throw rpcError(4001, 'User rejected the request.');
      }
      return method === 'eth_chainId' ? '0x1' : [];
    });
    vi.stubGlobal('ethereum', wallet.provider);
    mockShop();
    renderPay();
    await userEvent.click(await screen.findByRole('button', { name: 'Connect to MetaMask' }));
    expect((await screen.findAllByText('Connection Error: User rejected the request.')).length).toBeGreaterThan(0);
  });

  it("cancels the order after asking: the page says so and offers no payment any more", async () => {
    let cancelled = false;
    const api = mockApi({
      'GET /api/orders/o1': () => (cancelled ? unpaidOrder({ status: 'CANCELLED', quote: null }) : unpaidOrder()),
      'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() },
      'POST /api/orders/o1/cancel': () => {
        cancelled = true;
        return { message: 'Order cancelled', order: unpaidOrder({ status: 'CANCELLED', quote: null }) };
      },
    });
    renderPay();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect(screen.getByText('Its items go back on sale. A payment already sent for it will be refunded by the shop.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, cancel the order' }));
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    expect(await screen.findByText(/This order was cancelled: it no longer waits for a payment/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Order summary' })).getByText('Cancelled')).toBeInTheDocument();
    expect(api.sent('POST /api/orders/o1/cancel')).toHaveLength(1);
  });

  it('says so when the order is already paid, without a Pay button', async () => {
    mockShop(() => makeOrder({ _id: 'o1', quote: null, payments: [] }));
    renderPay();
    expect(await screen.findByText('This order is already paid.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay / })).not.toBeInTheDocument();
  });

  it("offers a paid order's overpayment to the balance or as a refund, and lists the order's refunds", async () => {
    let credited = false;
    const paid = () =>
      makeOrder({
        _id: 'o1',
        totalPrice: 21,
        paidUsd: credited ? 21 : 24,
        quote: null,
        payments: [],
        overpayment: credited
          ? null
          : { usd: 3, creditUsd: 2.5, wei: '1000000000000000', eth: '0.001000', from: RECEIVING, refundable: true, parts: [{ txHash: HASH, from: RECEIVING, asset: 'ETH', amount: '1000000000000000', wei: '1000000000000000', eth: '0.001000', usd: 3 }] },
        refunds: [
          {
            _id: 'r1',
            source: 'TRANSFER',
            order: 'o1',
            txHash: null,
            user: null,
            wallet: RECEIVING,
            walletSource: 'sender',
            asset: 'ETH',
            amount: '2000000000000000',
            amountText: '0.002000 ETH',
            amountWei: '2000000000000000',
            amountEth: '0.002000',
            amountUsd: 6,
            status: 'PAID',
            payoutTxHash: HASH,
            check: null,
            heldBy: null,
            createdAt: '2026-03-05T10:00:00.000Z',
            paidAt: '2026-03-05T11:00:00.000Z',
          },
        ],
      });
    const api = mockApi({
      'GET /api/orders/o1': paid,
      'POST /api/orders/o1/overpayment': () => {
        credited = true;
        return { message: '$3.00 added to your active balance', credited: '3.00' };
      },
    });
    renderPay();

    const card = await screen.findByRole('region', { name: 'Overpayment' });
    expect(within(card).getByText('You paid $3.00 (0.001000 ETH) more than the order total.')).toBeInTheDocument();
    expect(within(card).getByText("Added to your active balance: $2.50 (what its ETH is worth at today's price, at most the amount above).")).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Refund to my wallet' })).toBeEnabled();
    // Above the receipt, where a phone shows it first.
    expect(card.compareDocumentPosition(await screen.findByRole('region', { name: 'Receipt' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const refunds = await screen.findByRole('region', { name: 'Refunds' });
    expect(within(refunds).getByText('0.002000 ETH')).toBeInTheDocument();
    expect(within(refunds).getByText('Paid')).toBeInTheDocument();
    expect(within(refunds).getByText(RECEIVING)).toBeInTheDocument();
    expect(within(refunds).getByText(HASH)).toBeInTheDocument();

    await userEvent.click(within(card).getByRole('button', { name: 'Add to my balance' }));
    expect(await screen.findByText('$3.00 added to your active balance')).toBeInTheDocument();
    expect(api.sent('POST /api/orders/o1/overpayment')[0]?.body).toEqual({ action: 'balance' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Overpayment' })).not.toBeInTheDocument());
  });

  describe('sending a refund to another wallet', () => {
    it("offers 'Send to another wallet' on a requested refund: connects the wallet, signs the refund's message and PUTs it", async () => {
      const wallet = createFakeEthereum();
      vi.stubGlobal('ethereum', wallet.provider);
      let moved = false;
      const api = mockApi({
        'GET /api/orders/o1': () =>
          orderWithRefunds([makeRefund(moved ? { wallet: NEW_WALLET, walletSource: 'claim' } : {}), makeRefund({ _id: 'r2', status: 'PAID', payoutTxHash: HASH })]),
        'PUT /api/refunds/r1/wallet': () => {
          moved = true;
          return makeRefund({ wallet: NEW_WALLET, walletSource: 'claim' });
        },
      });
      renderPay();

      const refunds = await screen.findByRole('region', { name: 'Refunds' });
      const [requested, paid] = within(refunds).getAllByRole('listitem');
      expect(within(paid!).queryByRole('button', { name: 'Send to another wallet' })).not.toBeInTheDocument();
      const toggle = within(requested!).getByRole('button', { name: 'Send to another wallet' });
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await userEvent.click(toggle);
      expect(toggle).toHaveAttribute('aria-expanded', 'true');

      const form = within(requested!).getByRole('form', { name: 'Send the refund to another wallet' });
      expect(within(form).getByText('The wallet that sent this ETH must sign this change.')).toBeInTheDocument();
      const send = within(form).getByRole('button', { name: 'Sign and send' });
      expect(send).toBeDisabled();
      await userEvent.type(within(form).getByLabelText('New wallet'), NEW_WALLET);
      await userEvent.click(send);

      expect(await screen.findByText('Refund will be sent to 0x3C44…93BC')).toBeInTheDocument();
      expect(wallet.signed).toEqual([{ message: refundWalletMessage('r1', NEW_WALLET), address: getAddress(wallet.account) }]);
      expect(api.sent('PUT /api/refunds/r1/wallet').map((r) => r.body)).toEqual([{ wallet: NEW_WALLET, signature: FAKE_SIGNATURE }]);
      // The order is refetched: the refund now shows its new wallet.
      expect(await within(refunds).findByText(NEW_WALLET)).toBeInTheDocument();
      expect(within(refunds).queryByRole('form', { name: 'Send the refund to another wallet' })).not.toBeInTheDocument();
    });

    it("shows the server's message when the signature is not from the sender, and the wallet's when it refuses to sign", async () => {
      let refuse = false;
      const wallet = createFakeEthereum({
        signMessage: () => {
          if (refuse) throw rpcError(4001, 'User denied message signature.');
          return FAKE_SIGNATURE;
        },
      });
      vi.stubGlobal('ethereum', wallet.provider);
      const forbidden = `The signature is not from the address that sent this ETH (${RECEIVING})`;
      const api = mockApi({
        'GET /api/orders/o1': () => orderWithRefunds([makeRefund()]),
        'PUT /api/refunds/r1/wallet': reply(403, { message: forbidden }),
      });
      renderPay();

      await userEvent.click(await screen.findByRole('button', { name: 'Send to another wallet' }));
      const form = screen.getByRole('form', { name: 'Send the refund to another wallet' });
      await userEvent.type(within(form).getByLabelText('New wallet'), NEW_WALLET);
      await userEvent.click(within(form).getByRole('button', { name: 'Sign and send' }));
      expect(await within(form).findByText(`Error: ${forbidden}`)).toBeInTheDocument();
      expect(api.sent('PUT /api/refunds/r1/wallet')).toHaveLength(1);

      refuse = true;
      await userEvent.click(within(form).getByRole('button', { name: 'Sign and send' }));
      expect(await within(form).findByText('Signature Error: User rejected the request.')).toBeInTheDocument();
      expect(api.sent('PUT /api/refunds/r1/wallet')).toHaveLength(1);
    });

    it('offers no such control for a paid refund, nor for one whose payout is being checked', async () => {
      mockApi({
        'GET /api/orders/o1': () =>
          orderWithRefunds([
            makeRefund({ status: 'PAID', payoutTxHash: HASH, paidAt: '2026-03-05T11:00:00.000Z' }),
            makeRefund({ _id: 'r2', check: { txHash: HASH, status: 'CHECKING', reason: null, seen: true, createdAt: '2026-03-05T10:30:00.000Z' } }),
          ]),
      });
      renderPay();
      const refunds = await screen.findByRole('region', { name: 'Refunds' });
      expect(within(refunds).getAllByRole('listitem')).toHaveLength(2);
      expect(within(refunds).queryByRole('button', { name: 'Send to another wallet' })).not.toBeInTheDocument();
      expect(within(refunds).queryByLabelText('New wallet')).not.toBeInTheDocument();
    });
  });
});
