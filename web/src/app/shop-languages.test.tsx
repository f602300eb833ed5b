import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@shop/core/contract';
import { startLocale } from '@/i18n/i18n';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import shopEnSource from '@/i18n/catalogs/shop/en.json?raw';

/**
 * The shop's home page and sign-in page drawn in Azerbaijani and Russian: their words come
 * from the locale's catalogue, and no English message of theirs is left on the page.
 */
const shopEn = JSON.parse(shopEnSource) as Record<string, string>;

/** The English texts of the keys under `prefixes` that fill in no values (a plain text a page shows as it is). */
function englishTexts(prefixes: readonly string[]): string[] {
  return Object.entries(shopEn)
    .filter(([key, message]) => prefixes.some((prefix) => key.startsWith(prefix)) && !message.includes('{'))
    .map(([, message]) => message);
}

/** What the page shows: its text, and the names given to screen readers (aria-label, placeholders). */
function pageWords(): string {
  const labelled = [...document.body.querySelectorAll('[aria-label], [placeholder]')].map(
    (element) => `${element.getAttribute('aria-label') ?? ''} ${element.getAttribute('placeholder') ?? ''}`,
  );
  return [document.body.textContent ?? '', ...labelled].join('\n');
}

/** Fails for each English text still on the page (one that is the same in the language, 'Admin', is not asked about). */
function expectNoEnglish(prefixes: readonly string[], except: readonly string[] = []) {
  const words = pageWords();
  const left = englishTexts(prefixes).filter((text) => !except.includes(text) && words.includes(text));
  expect(left).toEqual([]);
}

const gold = {
  _id: 'p1',
  name: 'Gold Package',
  image: '/images/gold.svg',
  description: 'Gold',
  price: 249.5,
  rating: 4.5,
  numReviews: 18,
  countInStock: 25,
  dailyCredit: 6,
  durationDays: 30,
  publishedAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

type Expected = {
  locale: Locale;
  home: { heading: string; reviews: string; available: string; cart: string; enter: string };
  login: { heading: string; email: string; password: string; submit: string; title: string };
};

const languages: Expected[] = [
  {
    locale: 'az',
    home: { heading: 'Mövcud Paketlər :', reviews: '18 rəy', available: 'Mövcuddur', cart: 'Səbət', enter: 'Daxil ol' },
    login: { heading: 'Daxil Olun', email: 'E-poçt ünvanı', password: 'Şifrə', submit: 'Daxil ol', title: 'Daxil Olun | ETH Shop' },
  },
  {
    locale: 'ru',
    home: { heading: 'Доступные пакеты :', reviews: '18 отзывов', available: 'В наличии', cart: 'Корзина', enter: 'Вход' },
    login: { heading: 'Войти', email: 'Адрес e-mail', password: 'Пароль', submit: 'Войти', title: 'Вход | ETH Shop' },
  },
];

describe.each(languages)('the shop in $locale', ({ locale, home, login }) => {
  afterEach(async () => {
    await startLocale('en');
  });

  it('draws the home page, its packages and the layout in the language', async () => {
    await startLocale(locale);
    mockApi({ 'GET /api/products': [gold] });
    renderApp('/');
    expect(await screen.findByRole('heading', { name: home.heading })).toBeInTheDocument();
    const card = await screen.findByRole('listitem');
    expect(within(card).getByText(home.reviews)).toBeInTheDocument();
    expect(within(card).getByText(home.available)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: home.cart })).toHaveAttribute('href', '/cart');
    expect(screen.getByRole('link', { name: home.enter })).toHaveAttribute('href', '/login');
    expectNoEnglish(['products.home.', 'products.stock.', 'products.reviews', 'header.cart', 'header.enter', 'header.nav', 'footer.']);
    expect(screen.queryByText('Available Packages :')).not.toBeInTheDocument();
  });

  it('draws the sign-in page, its title and its fields in the language', async () => {
    await startLocale(locale);
    mockApi({});
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: login.heading })).toBeInTheDocument();
    expect(screen.getByLabelText(login.email)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(login.password)).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: login.submit })).toBeInTheDocument();
    await vi.waitFor(() => expect(document.title).toBe(login.title));
    // 'Daxil Olun' is Azerbaijani already: the az page keeps it.
    expectNoEnglish(['auth.login.', 'auth.field.', 'header.cart', 'header.enter'], locale === 'az' ? ['Daxil Olun'] : []);

    expect(screen.queryByText('Email Address')).not.toBeInTheDocument();
  });
});

describe('a public page drawn on the server', () => {
  afterEach(async () => {
    await startLocale('en');
  });

  it("has its title, meta description and words in the visitor's language", async () => {
    const { render } = await import('@/entry-server');
    const network = { chainId: 11155111, name: 'Sepolia', testNetwork: true, developmentChain: false, explorerUrl: null };
    const page = await render({ url: '/login', locale: 'ru', currency: 'USD', data: { shopConfig: { network, displayCurrencies: [] } } });
    expect(page?.title).toBe('Вход | ETH Shop');
    expect(page?.description).toBe('Войдите в свой аккаунт ETH Shop, чтобы заказывать и оплачивать.');
    expect(page?.html).toContain('Войти');
    expect(page?.html).toContain('Тестовая сеть: Sepolia. Платежи здесь — не настоящие деньги.');
    expect(page?.html).not.toContain('Email Address');
    expect(page?.html).not.toContain('Test network');
  });

  it('draws pages asked for at once each in its own language (the api draws for several visitors at a time)', async () => {
    const { render } = await import('@/entry-server');
    const network = { chainId: 11155111, name: 'Sepolia', testNetwork: true, developmentChain: false, explorerUrl: null };
    const data = { shopConfig: { network, displayCurrencies: [] }, products: { items: [gold], next: null } };
    const asked = (['az', 'ru', 'en', 'ru', 'az', 'en'] as const).map((locale) => ({ locale, page: render({ url: '/', locale, currency: 'USD', data }) }));
    const headings = { az: 'Mövcud Paketlər :', ru: 'Доступные пакеты :', en: 'Available Packages :' };
    for (const { locale, page } of asked) expect((await page)?.html, locale).toContain(headings[locale]);
  });
});
