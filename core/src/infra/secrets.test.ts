import { describe, expect, it } from 'vitest';
import { sameSecret } from './secrets.ts';

describe('comparing a presented secret', () => {
  it('accepts only the same secret: another value, another length, a prefix or nothing are refused', () => {
    const token = 'metrics-token-0123456789';
    expect(sameSecret(token, token)).toBe(true);
    expect(sameSecret('metrics-token-0123456780', token)).toBe(false);
    expect(sameSecret('metrics-token-012345678', token)).toBe(false);
    expect(sameSecret(`${token}9`, token)).toBe(false);
    expect(sameSecret('', token)).toBe(false);
    expect(sameSecret(undefined, token)).toBe(false);
    expect(sameSecret('tökén', 'tökén')).toBe(true);
  });
});
