import { describe, expect, it } from 'vitest';
import { formatAmountIn, formatDayIn, formatDisplayIn, formatMonthDayIn, formatNumberIn, formatSignedUsdIn, formatTimeIn, formatUsdIn } from './locale-format.ts';
import { parseDisplayCurrencies } from './locales.ts';

const azn = { code: 'AZN', perUsd: '1.70', asOf: '2026-11-29' };

describe('money and dates in a language', () => {
  it("keeps SPEC.md's English forms", () => {
    expect(formatUsdIn('en', '12.5')).toBe('USD $12.50');
    expect(formatTimeIn('en', '2026-11-29T07:05:00Z')).toBe('2026-11-29 07:05 UTC');
    expect(formatDayIn('en', '2026-11-29T07:05:00Z')).toBe('2026-11-29');
    expect(formatMonthDayIn('en', '2026-11-29')).toBe('11-29');
    expect([formatSignedUsdIn('en', '600.00'), formatSignedUsdIn('en', '-5.00')]).toEqual(['+$600.00', '-$5.00']);
  });

  it('writes Russian and Azerbaijani amounts and dates as the language does, the same in every runtime (no Intl data of theirs needed)', () => {
    expect(formatUsdIn('ru', '1234.5').replace(/\s/g, ' ')).toBe('1 234,50 USD');
    expect(formatUsdIn('az', '1234.5').replace(/\s/g, ' ')).toBe('1.234,50 USD');
    expect(formatTimeIn('ru', '2026-11-29T07:05:00Z')).toBe('29.11.2026 07:05 UTC');
    expect(formatDayIn('az', '2026-11-29T07:05:00Z')).toBe('29.11.2026');
    expect(formatMonthDayIn('ru', '2026-11-29')).toBe('29.11');
    expect(formatSignedUsdIn('az', '-1234.5')).toBe('-1.234,50 USD');
    expect(formatNumberIn('az', 12345.678)).toBe('12.345,68');
    expect(formatAmountIn('en', 1234.5)).toBe('1234.50');
    expect(formatAmountIn('az', '1234.5')).toBe('1.234,50');
    expect(formatAmountIn('ru', '0').replace(/\s/g, ' ')).toBe('0,00');
    expect(formatNumberIn('ru', 12345.678).replace(/\s/g, ' ')).toBe('12 345,68');
  });

  it('converts USD to a display currency exactly, rounding half up to its cents', () => {
    // 12.50 * 1.70 = 21.25; 0.01 * 1.70 = 0.017 -> 0.02; 33.33 * 1.7 = 56.661 -> 56.66
    expect(formatDisplayIn('en', '12.50', azn)).toBe('₼21.25');
    expect(formatDisplayIn('en', '0.01', azn)).toBe('₼0.02');
    expect(formatDisplayIn('en', '33.33', azn)).toBe('₼56.66');
    expect(formatDisplayIn('en', '-12.50', azn)).toBe('-₼21.25');
    expect(formatDisplayIn('az', '12.50', azn).replace(/\s/g, ' ')).toBe('21,25 ₼');
  });
});

describe('DISPLAY_CURRENCIES', () => {
  it('reads CODE:RATE with the given day or the day it started', () => {
    expect(parseDisplayCurrencies('AZN:1.70', '2026-11-29')).toEqual([azn]);
    expect(parseDisplayCurrencies('azn:1.70:2026-11-01, EUR:0.95', '2026-11-29')).toEqual([
      { code: 'AZN', perUsd: '1.70', asOf: '2026-11-01' },
      { code: 'EUR', perUsd: '0.95', asOf: '2026-11-29' },
    ]);
    expect(parseDisplayCurrencies(undefined, '2026-11-29')).toEqual([]);
  });

  it('refuses a malformed entry rather than showing wrong prices', () => {
    for (const bad of ['AZN', 'AZN:', 'AZN:0', 'AZN:-1', 'AZN:1,7', 'AZN:1.7:yesterday', 'USD:1', 'AZN:1.7:2026-11-29:x']) {
      expect(() => parseDisplayCurrencies(bad, '2026-11-29'), bad).toThrow(/DISPLAY_CURRENCIES/);
    }
  });
});
