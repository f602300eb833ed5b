import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminOverviewJson, Locale } from '@shop/core/contract';
import english from '@/i18n/catalogs/admin/en.json';
import { startLocale } from '@/i18n/i18n';
import { signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const overview: AdminOverviewJson = {
  from: '2026-03-01',
  to: '2026-03-03',
  days: [
    { day: '2026-03-01', revenue: '150.00', paidOrders: 2 },
    { day: '2026-03-02', revenue: '125.00', paidOrders: 1 },
    { day: '2026-03-03', revenue: '0.00', paidOrders: 0 },
  ],
  totals: { revenue: '275.00', paidOrders: 3, newUsers: 4, referralRewards: '7.50', relayGasUsd: '0.42', relayGasWei: '143000000000000', relayedPayments: 5 },
  ordersByStatus: [{ status: 'PAID', count: 3 }],
  needsAction: { payments: 2, cashouts: 1, cashoutsUsd: '60.00' },
  topPackages: [{ productId: 'p1', name: 'Gold Package', revenue: '200.00', qty: 2, orders: 2 }],
};

/** The overview's English messages that fill in no value: none of them may be drawn in another language. */
const englishTexts = Object.entries(english)
  .filter(([key, message]) => key.startsWith('overview.') && !message.includes('{'))
  .map(([, message]) => message);

/** Every text a person reads or hears on the page: each element's own text, its label and its title. */
function drawnTexts(): string[] {
  const texts: string[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    const own = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join('').trim();
    if (own) texts.push(own);
    for (const attribute of ['aria-label', 'title', 'placeholder']) {
      const value = element.getAttribute(attribute);
      if (value) texts.push(value);
    }
  }
  return texts;
}

const cases: { locale: Locale; heading: string; table: string; stat: string; summary: RegExp; gas: string; preset: string }[] = [
  {
    locale: 'ru',
    heading: 'Обзор',
    table: 'Выручка и оплаченные заказы по дням',
    stat: 'Газ, оплаченный за подписанные платежи',
    summary: /с 3 оплаченных заказов за 3 дня \(UTC\); лучший день — 01\.03\.2026: .*Все дни — в таблице ниже\./,
    gas: '5 платежей',
    preset: 'Последние 30 дней',
  },
  {
    locale: 'az',
    heading: 'İcmal',
    table: 'Gündəlik gəlir və ödənilmiş sifarişlər',
    stat: 'İmzalanmış ödənişlər üçün ödənilmiş qaz',
    summary: /3 gün ərzində \(UTC\) 3 ödənilmiş sifarişdən .*; ən yaxşı gün .* ilə 01\.03\.2026 oldu\. Bütün günlər aşağıdakı cədvəldədir\./,
    gas: '5 ödəniş',
    preset: 'Son 30 gün',
  },
];

describe('OverviewPage in another language', () => {
  afterEach(async () => {
    await startLocale('en');
  });

  for (const c of cases) {
    it(`draws the admin overview in ${c.locale}, with none of its English texts left`, async () => {
      await startLocale(c.locale, ['admin']);
      signIn({ _id: 'a1', isAdmin: true });
      mockApi({ 'GET /api/admin/overview': overview });
      renderApp('/admin?from=2026-03-01&to=2026-03-03');

      expect(await screen.findByRole('heading', { level: 1, name: c.heading })).toBeInTheDocument();
      const days = await screen.findByRole('table', { name: c.table });
      expect(within(days).getAllByRole('row')).toHaveLength(4);
      // Its days as the language writes them, newest first.
      expect(within(days).getAllByRole('row')[1]).toHaveTextContent(/^03\.03\.2026/);
      expect(screen.getByRole('group', { name: c.stat })).toHaveTextContent(c.gas);
      expect(screen.getByText(c.summary)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: c.preset })).toHaveAttribute('aria-pressed', 'false');

      const drawn = drawnTexts();
      expect(englishTexts.filter((text) => drawn.includes(text))).toEqual([]);
    });
  }
});
