import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import englishSource from '@/i18n/catalogs/account/en.json?raw';
import { startLocale, t, type MessageKey } from '@/i18n/i18n';
import { makeOrder, makeUser, signIn } from '@/testing/fixtures';
import { byStatus, mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

/** The English catalogue's messages, as written (the build compiles the module's). */
const english = JSON.parse(englishSource) as Record<string, string>;

const orders = [
  makeOrder({
    _id: 'o1',
    expiresAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    orderedItems: [{ name: 'Gold Package', image: '/images/gold.svg', price: 249.5, qty: 1, product: 'p1' }],
  }),
  makeOrder({
    _id: 'o2',
    isPaid: false,
    status: 'PENDING_PAYMENT',
    orderedItems: [{ name: 'Silver Package', image: '/images/silver.svg', price: 20, qty: 1, product: 'p2' }],
  }),
];

/** The profile's own messages and its order lists' (the balance, referral and statement cards are the users feature's). */
const DRAWN: MessageKey[] = ['profile.title', 'orders.paid.title', 'orders.paid.expiresIn', 'orders.unpaid.title', 'orders.unpaid.pay', 'orders.history.title'];

const EXPECTED = {
  az: { title: 'Profil', packages: 'Paketlərim', daysLeft: '(5 gün qalıb)', unpaid: 'Ödənilməmiş sifarişlər' },
  ru: { title: 'Профиль', packages: 'Мои пакеты', daysLeft: '(осталось 5 дней)', unpaid: 'Неоплаченные заказы' },
} as const;

describe('the profile in Azerbaijani and Russian', () => {
  afterEach(() => startLocale('en'));

  for (const locale of ['az', 'ru'] as const) {
    it(`draws the profile and the buyer's orders in ${locale}, with no English message of them left`, async () => {
      await startLocale(locale, ['account']);
      signIn(makeUser({ name: 'Alice Buyer' }));
      mockApi({
        'GET /api/users/profile': makeUser({ activeBalance: 25.5 }),
        'GET /api/orders/mine': byStatus(orders),
        'GET /api/users/profile/statement': [],
        'GET /api/users/profile/cashouts': [],
      });
      renderApp('/profile');

      const expected = EXPECTED[locale];
      expect(await screen.findByRole('heading', { name: expected.title, level: 1 })).toBeInTheDocument();
      const paid = await screen.findByRole('list', { name: t('orders.paid.list') });
      expect(within(paid).getByText(expected.daysLeft)).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: expected.packages })).toBeInTheDocument();
      expect(await screen.findByRole('heading', { name: expected.unpaid })).toBeInTheDocument();
      await screen.findByRole('list', { name: t('orders.history.list') });

      // The screen's own texts (the layout around it, with its 'Profile' link, is the shop's).
      const main = screen.getByRole('main');
      for (const key of DRAWN) {
        expect(within(main).getAllByText(t(key)).length, key).toBeGreaterThan(0);
        expect(within(main).queryByText(english[key] ?? key), key).not.toBeInTheDocument();
      }
    });
  }
});
