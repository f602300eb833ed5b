import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderReference } from '@shop/core/contract';
import { ANVIL_ACCOUNTS } from '../scripts/testing/chain.ts';
import { eventually, toast, unique } from './journey-helpers.ts';
import { englishLeft, say, sayKey, sayPattern } from './languages.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';

/**
 * The shop in its buyers' languages (issue 41), on a phone: a visitor whose browser asks
 * for Azerbaijani registers, buys a package, pays and reads the receipt, all in
 * Azerbaijani; an admin whose browser asks for Russian reads the overview in Russian.
 * Every screen passes axe (shop.screenshot) and shows none of the English catalogue's words.
 */
const PHONE = { width: 390, height: 844 };
const BUYER_WALLET = ANVIL_ACCOUNTS[8];
const recipients = (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((t) => t?.value.map((v) => v.address) ?? []);

let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});

describe('the shop in Azerbaijani and Russian', () => {
  it('a buyer whose browser asks for Azerbaijani registers, buys, pays and reads the receipt in Azerbaijani', async () => {
    const az = (english: string) => say('az', english);
    const page = await shop.newPage({ viewport: PHONE, locale: 'az-AZ', wallet: { account: BUYER_WALLET } });
    const noEnglish = async (name: string, areas: Parameters<typeof englishLeft>[2]) => {
      await shop.screenshot(page, `languages-az-${name}`);
      expect(await englishLeft(page, 'az', areas), name).toEqual([]);
    };

    await page.goto('/');
    expect(await page.locator('html').getAttribute('lang')).toBe('az');
    await page.getByRole('heading', { name: az('Available Packages :') }).waitFor();
    await noEnglish('home', ['shop']);

    await page.getByRole('link', { name: 'Starter Package' }).first().click();
    await page.getByRole('button', { name: az('Add to Cart') }).click();
    await page.waitForURL('**/cart');
    await noEnglish('cart', ['shop']);
    await page.getByRole('button', { name: az('Submit Order') }).click();
    await page.getByRole('heading', { name: 'Daxil Olun' }).waitFor();
    await noEnglish('sign-in', ['shop']);
    await page.getByRole('link', { name: sayKey('az', 'auth.login.register') }).click();

    const buyer = { name: 'Aysel Alıcı', email: `${unique('aysel')}@example.com`, password: 'aysel-pass-1' };
    await page.getByRole('heading', { name: az('Registration:') }).waitFor();
    await noEnglish('register', ['shop']);
    await page.getByLabel(az('Email Address')).fill(buyer.email);
    await page.getByLabel(az('Password'), { exact: true }).fill(buyer.password);
    await page.getByLabel(az('Name')).fill(buyer.name);
    await page.getByRole('button', { name: sayKey('az', 'auth.register.submit') }).click();
    await page.waitForURL((url) => url.pathname === '/placeorder');
    // She registered in Azerbaijani: her e-mails are written in it.
    expect((await shop.db.user.findUniqueOrThrow({ where: { email: buyer.email } })).locale).toBe('az');
    await noEnglish('place-order', ['shop', 'account']);

    await page.getByRole('button', { name: az('Place Order') }).click();
    await page.waitForURL(/\/order\/[0-9a-f-]{36}$/);
    const reference = orderReference(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('button', { name: az('Connect to MetaMask') }).click();
    await toast(page, az('MetaMask Successfully Connected')).waitFor();
    await noEnglish('pay', ['shop', 'account']);
    await page.getByRole('button', { name: sayPattern('az', 'Pay {usd} USD ({amount})') }).click();
    await page.waitForURL(/\/purchased\?tx=0x[0-9a-f]{64}$/, { timeout: 30_000 });
    await page.getByText(az('Success Pay')).waitFor();
    await page.getByRole('region', { name: az('Receipt') }).waitFor();
    await noEnglish('receipt', ['shop', 'account']);

    // The receipt e-mail in her language too.
    const mail = await eventually('the receipt e-mail', () => shop.smtp.messages.find((m) => recipients(m).includes(buyer.email) && (m.subject ?? '').includes(reference)));
    expect(mail.subject).toBe(`${reference} nömrəli sifariş üçün ödəniş alındı`);
  });

  it('an admin whose browser asks for Russian reads the overview in Russian', async () => {
    const ru = (english: string) => say('ru', english);
    const page = await shop.newPage({ viewport: PHONE, locale: 'ru-RU' });
    await page.goto('/login?redirect=%2Fadmin');
    expect(await page.locator('html').getAttribute('lang')).toBe('ru');
    await page.getByRole('heading', { name: ru('Daxil Olun') }).waitFor();
    await page.getByLabel(ru('Email Address')).fill(ADMIN.email);
    await page.getByLabel(ru('Password'), { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: ru('Sign In') }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('heading', { name: ru('Overview'), level: 1 }).waitFor();
    await shop.screenshot(page, 'languages-ru-admin-overview');
    expect(await englishLeft(page, 'ru', ['shop', 'admin'])).toEqual([]);
  });
});
