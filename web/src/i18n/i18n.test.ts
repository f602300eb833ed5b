import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog, startLocale, t, type MessageKey } from './i18n';

/**
 * The app's messages written out from the compiled catalogues (i18n.ts): a plural takes
 * the language's form of the count, '#' is the count as the language writes numbers, a
 * select its case, and a key no loaded catalogue has fails the test that draws it.
 */
describe('t', () => {
  afterEach(async () => {
    await startLocale('en');
  });

  it('takes each of Russian’s plural forms, and writes the count as Russian does', async () => {
    await startLocale('ru');
    expect([1, 3, 5, 21, 22, 111].map((count) => t('products.reviews', { count }))).toEqual([
      '1 отзыв',
      '3 отзыва',
      '5 отзывов',
      '21 отзыв',
      '22 отзыва',
      '111 отзывов',
    ]);
    // A no-break space groups thousands, as the server's page writes them.
    expect(t('products.reviews', { count: 1000 })).toBe('1\u00a0000 отзывов');
  });

  it('writes a count of a thousand or more with each language’s own marks', async () => {
    expect(t('products.reviews', { count: 1 })).toBe('1 review');
    expect(t('products.reviews', { count: 12345 })).toBe('12,345 reviews');
    await startLocale('az');
    expect(t('products.reviews', { count: 12345 })).toBe('12.345 rəy');
  });

  it('picks a select’s case by its value, and `other` for any value it does not name', async () => {
    await loadCatalog('admin', 'en');
    expect(t('adminPayments.approval.title', { kind: 'cashout' })).toBe('Ask a second admin to approve this cashout');
    expect(t('adminPayments.approval.title', { kind: 'refund' })).toBe('Ask a second admin to approve this refund');
    // Not one of Object's own members.
    expect(t('adminPayments.approval.title', { kind: 'constructor' })).toBe('Ask a second admin to approve this refund');
    expect(t('adminPayments.payoutCheck.refused', { hash: '0xab…cd', hasReason: 'yes', reason: 'reverted' })).toBe('Refused 0xab…cd: reverted');
    expect(t('adminPayments.payoutCheck.refused', { hash: '0xab…cd', hasReason: 'no' })).toBe('Refused 0xab…cd');
  });

  it('fails on a key no loaded catalogue of the language has', () => {
    expect(() => t('products.nothing' as MessageKey)).toThrow("no message 'products.nothing' in the en catalogues");
  });
});
