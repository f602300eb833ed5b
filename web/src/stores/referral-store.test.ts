import { describe, expect, it } from 'vitest';
import { forgetReferralCode, keepReferralCode, keptReferralCode, REFERRAL_KEPT_DAYS } from './referral-store';

const DAY = 86_400_000;
const start = Date.parse('2026-03-01T12:00:00Z');

describe('referral store', () => {
  it(`keeps a link's code for ${REFERRAL_KEPT_DAYS} days, then forgets it`, () => {
    keepReferralCode('alice7', start);
    expect(keptReferralCode(start)).toBe('ALICE7');
    expect(keptReferralCode(start + 30 * DAY - 1)).toBe('ALICE7');
    expect(keptReferralCode(start + 30 * DAY)).toBeUndefined();
  });

  it('the latest link wins, and its 30 days start again', () => {
    keepReferralCode('ALICE7', start);
    keepReferralCode(' BOB9 ', start + 20 * DAY);
    expect(keptReferralCode(start + 40 * DAY)).toBe('BOB9');
  });

  it('ignores what is no code (empty, too long, other characters) and keeps the one it had', () => {
    keepReferralCode('ALICE7', start);
    for (const bad of ['', '   ', 'A'.repeat(33), 'AB<script>', 'AB CD']) keepReferralCode(bad, start + DAY);
    expect(keptReferralCode(start + DAY)).toBe('ALICE7');
  });

  it('forgets the code once it was used, and reads nothing from a damaged entry', () => {
    keepReferralCode('ALICE7', start);
    forgetReferralCode();
    expect(keptReferralCode(start)).toBeUndefined();
    window.localStorage.setItem('referral', '{"code":42}');
    expect(keptReferralCode(start)).toBeUndefined();
  });
});
