import { describe, expect, it } from 'vitest';
import { canCashout } from './cashout-rules';

describe('canCashout', () => {
  it('needs an active balance strictly above 20', () => {
    expect(canCashout(20)).toBe(false);
    expect(canCashout('20.00')).toBe(false);
    expect(canCashout(19.99)).toBe(false);
    expect(canCashout(20.01)).toBe(true);
    expect(canCashout(30)).toBe(true);
  });
});
