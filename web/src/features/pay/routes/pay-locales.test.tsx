import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Locale } from '@shop/core/contract';
import englishSource from '@/i18n/catalogs/account/en.json?raw';
import { startLocale, t, type MessageKey } from '@/i18n/i18n';
import { makeOrder, signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { formatAmount } from '@/lib/format';

/** The English catalogue's messages, as written (the build compiles the module's). */
const english = JSON.parse(englishSource) as Record<string, string>;

/** An unpaid order of two packages with its ETH quote, as the buyer opens it to pay. */
const order = makeOrder({
  _id: 'o1',
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
    receivingAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    chainId: 1,
    expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  },
  payments: [],
});

/** The pay page's messages drawn for that order on a desktop without a browser wallet. */
const DRAWN: MessageKey[] = [
  'pay.page.title',
  'pay.summary.total',
  'pay.panel.title',
  'pay.quote.livePrice',
  'pay.quote.amount',
  'pay.quote.lockedPrice',
  'pay.quote.priceLock',
  'pay.phone.primary',
  'pay.phone.scan',
  'pay.phone.open',
  'pay.phone.follows',
  'pay.walletSection.connect',
  'pay.claim.summary',
  'pay.claim.explain',
  'pay.claim.txHash',
  'pay.claim.submit',
];

const EXPECTED: Record<Exclude<Locale, 'en'>, { heading: string; connect: string; pay: string }> = {
  az: { heading: 'Ödəniş', connect: 'MetaMask-a qoşulun', pay: '21.00 USD ödəyin (0.007000 ETH)' },
  ru: { heading: 'Оплата', connect: 'Подключить MetaMask', pay: 'Оплатить 21.00 USD (0.007000 ETH)' },
};

describe('the pay page in Azerbaijani and Russian', () => {
  afterEach(() => startLocale('en'));

  for (const locale of ['az', 'ru'] as const) {
    it(`draws the order, the quote, the phone's request and the wallet in ${locale}, with no English message of them left`, async () => {
      await startLocale(locale, ['account']);
      signIn();
      mockApi({ 'GET /api/orders/o1': order, 'GET /api/crypto/eth-price': { price: '3000.00', updatedAt: new Date().toISOString() } });
      renderApp('/order/o1');

      const expected = EXPECTED[locale];
      expect(await screen.findByRole('heading', { name: expected.heading, level: 1 })).toBeInTheDocument();
      expect(await screen.findByRole('button', { name: expected.connect })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: expected.pay })).toBeInTheDocument();
      // The price as the language writes it (ru groups with a no-break space).
      const ethPrice = t('pay.quote.ethPrice', { price: formatAmount('3000.00') }).replace(/\s/g, ' ');
      expect(await screen.findByText((content) => content.replace(/\s/g, ' ') === ethPrice)).toBeInTheDocument();

      const text = document.body.textContent ?? '';
      for (const key of DRAWN) {
        expect(text, key).toContain(t(key));
        expect(text, key).not.toContain(english[key] ?? key);
      }
      expect(screen.queryByRole('button', { name: 'Pay 21.00 USD (0.007000 ETH)' })).not.toBeInTheDocument();
    });
  }
});
