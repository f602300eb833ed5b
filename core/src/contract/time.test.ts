import { describe, expect, it } from 'vitest';
import { formatDay, formatTime } from './time.ts';

describe('formatTime and formatDay', () => {
  it('writes a moment with its zone, the same from any offset it was given in', () => {
    expect(formatTime('2026-04-03T23:30:59.999Z')).toBe('2026-04-03 23:30 UTC');
    expect(formatTime('2026-04-03T23:30:00.000-05:00')).toBe('2026-04-04 04:30 UTC');
    expect(formatTime(new Date('2026-11-28T17:05:00Z'))).toBe('2026-11-28 17:05 UTC');
    expect(formatTime(null)).toBe('');
  });

  it('gives the UTC calendar day as YYYY-MM-DD', () => {
    expect(formatDay('2026-04-03T23:30:00.000Z')).toBe('2026-04-03');
    expect(formatDay('2026-04-03T23:30:00.000-05:00')).toBe('2026-04-04');
    expect(formatDay(new Date('2027-02-25T00:00:00Z'))).toBe('2027-02-25');
    expect(formatDay(undefined)).toBe('');
  });
});
